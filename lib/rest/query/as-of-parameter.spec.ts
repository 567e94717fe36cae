import { asOfParameter, timeParameter } from './as-of-parameter.js';
import type { RawQuery } from './parse-query.js';

const raw = (own: RawQuery['own'], rest: Partial<RawQuery> = {}): RawQuery => ({
  filters: [],
  page: {},
  fields: new Map(),
  own,
  search: '',
  ...rest,
});
const refusal = (code: string, parameter: string) =>
  expect.objectContaining({ code, options: { source: { parameter } } });

describe('asOfParameter', () => {
  it('is undefined without asOf, on every route', () => {
    for (const route of ['past', 'read', 'write'] as const) expect(asOfParameter(raw({}), route)).toBeUndefined();
  });

  it('reads an RFC 3339 time with its offset on a collection or resource read', () => {
    expect(asOfParameter(raw({ asOf: '2024-05-01T12:00:00+02:00' }), 'past')).toEqual(new Date('2024-05-01T10:00:00Z'));
    expect(asOfParameter(raw({ asOf: '2024-05-01T10:00:00.123Z' }, { page: { offset: '1' } }), 'past')).toEqual(
      new Date('2024-05-01T10:00:00.123Z'),
    );
  });

  it.each(['yesterday', '2024-05-01T10:00:00', '2024-05-01', ''])('refuses the time %j', (text) => {
    expect(() => asOfParameter(raw({ asOf: text }), 'past')).toThrow(refusal('invalid-query-parameter', 'asOf'));
  });

  it('refuses it on other reads and on writes', () => {
    const given = raw({ asOf: '2024-05-01T10:00:00Z' });
    expect(() => asOfParameter(given, 'read')).toThrow(refusal('as-of-unsupported', 'asOf'));
    expect(() => asOfParameter(given, 'write')).toThrow(refusal('invalid-query-parameter', 'asOf'));
  });

  it('refuses include and cursor pages with it, naming them', () => {
    const at = { asOf: '2024-05-01T10:00:00Z' };
    expect(() => asOfParameter(raw(at, { include: 'author' }), 'past')).toThrow(
      refusal('as-of-unsupported', 'include'),
    );
    expect(() => asOfParameter(raw(at, { page: { size: '2' } }), 'past')).toThrow(
      refusal('as-of-unsupported', 'page[size]'),
    );
    expect(() => asOfParameter(raw(at, { page: { after: 'x' } }), 'past')).toThrow(
      refusal('as-of-unsupported', 'page[after]'),
    );
  });
});

describe('timeParameter', () => {
  it('reads a time or refuses the parameter', () => {
    expect(timeParameter('filter[since]', '2024-01-01T00:00:00Z')).toEqual(new Date('2024-01-01T00:00:00Z'));
    expect(() => timeParameter('filter[since]', 'soon')).toThrow(refusal('invalid-query-parameter', 'filter[since]'));
  });
});
