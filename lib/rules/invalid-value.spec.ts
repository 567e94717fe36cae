import type { CrudApiError } from '../errors/crud-api.error.js';
import { InvalidValue, invalidValueIssues, throwInvalidValues } from './invalid-value.js';

describe('invalid values', () => {
  const bad = (message: string, at?: (string | number)[]) => new InvalidValue(message, 'invalid-type', { at });

  it('are found at any depth of write data, each issue at its path', () => {
    const data = {
      title: bad('t'),
      posts: { create: [{ title: 'ok' }, { rating: bad('r'), tags: { push: bad('p', [1]) } }] },
      when: new Date(0),
    };
    expect(invalidValueIssues(data, ['data'])).toEqual([
      { path: ['data', 'title'], message: 't', code: 'invalid-type' },
      { path: ['data', 'posts', 'create', 1, 'rating'], message: 'r', code: 'invalid-type' },
      { path: ['data', 'posts', 'create', 1, 'tags', 'push', 1], message: 'p', code: 'invalid-type' },
    ]);
  });

  it('are thrown together as one refusal, keeping a pointer the parser gave', () => {
    const data = { title: new InvalidValue('t', 'invalid-type', { pointer: '/data/attributes/title' }), b: bad('b') };
    expect(() => throwInvalidValues({ ok: 1 })).not.toThrow();
    const thrown = (() => {
      try {
        throwInvalidValues(data, ['data']);
      } catch (error) {
        return error as CrudApiError;
      }
    })();
    expect(thrown?.code).toBe('validation-failed');
    expect(thrown?.options.issues).toEqual([
      { path: ['data', 'title'], message: 't', code: 'invalid-type', pointer: '/data/attributes/title' },
      { path: ['data', 'b'], message: 'b', code: 'invalid-type' },
    ]);
  });
});
