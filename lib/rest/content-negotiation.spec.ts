import { checkAccept, checkContentType } from './content-negotiation.js';

const JSON_API = 'application/vnd.api+json';

describe('content negotiation', () => {
  it.each([
    JSON_API,
    `${JSON_API}; profile="a b"`,
    `${JSON_API}; ext=""`,
    'application/json',
    'application/json; charset=utf-8',
  ])('accepts the body type %s', (type) => {
    expect(() => checkContentType('POST', type)).not.toThrow();
  });

  it.each([
    `${JSON_API}; charset=utf-8`,
    `${JSON_API}; ext="https://jsonapi.org/ext/atomic"`,
    'text/plain',
    'application/x-www-form-urlencoded',
  ])('answers 415 for the body type %s', (type) => {
    expect(() => checkContentType('PATCH', type)).toThrow(expect.objectContaining({ code: 'unsupported-media-type' }));
  });

  it('requires a body type only for methods that carry a body', () => {
    expect(() => checkContentType('GET', undefined)).not.toThrow();
    expect(() => checkContentType('DELETE', undefined)).not.toThrow();
    expect(() => checkContentType('POST', undefined)).toThrow(
      expect.objectContaining({ code: 'unsupported-media-type' }),
    );
  });

  it('lets a POST route that takes no document (a restore) go without a body type', () => {
    expect(() => checkContentType('POST', undefined, false)).not.toThrow();
    expect(() => checkContentType('POST', 'text/plain', false)).toThrow(
      expect.objectContaining({ code: 'unsupported-media-type' }),
    );
  });

  it.each([
    undefined,
    '',
    '*/*',
    'application/*',
    'application/json',
    JSON_API,
    `${JSON_API};q=0.5`,
    `${JSON_API}; charset=x, ${JSON_API}`,
  ])('accepts Accept %p', (accept) => {
    expect(() => checkAccept(accept)).not.toThrow();
  });

  it.each(['text/html', `${JSON_API}; charset=utf-8`, `${JSON_API}; charset=utf-8, */*`, `${JSON_API};q=0`, '*/*;q=0'])(
    'answers 406 for Accept %p',
    (accept) => {
      expect(() => checkAccept(accept)).toThrow(expect.objectContaining({ code: 'not-acceptable' }));
    },
  );
});
