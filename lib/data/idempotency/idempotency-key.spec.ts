import { idempotencyKeyOf, idempotencyRecordId, requestFingerprint } from './idempotency-key.js';

const request = (overrides: object = {}) => ({
  method: 'POST',
  path: '/api/rpc/post/create',
  query: '',
  headers: {},
  body: { data: { title: 'a' } },
  raw: {},
  ...overrides,
});

describe('idempotencyKeyOf', () => {
  it.each([
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['  "padded"  ', 'padded'],
    ['"with space"', 'with space'],
    ['"escaped \\" and \\\\"', 'escaped " and \\'],
    [`"${'k'.repeat(255)}"`, 'k'.repeat(255)],
  ])('reads %s', (field, key) => {
    expect(idempotencyKeyOf(field)).toBe(key);
  });

  it('is undefined without the field', () => {
    expect(idempotencyKeyOf(undefined)).toBeUndefined();
  });

  it.each([
    ['empty', '""'],
    ['blank', '   '],
    ['overlong', `"${'k'.repeat(256)}"`],
    ['unterminated', '"abc'],
    ['a bad escape', '"a\\b"'],
    ['spaces unquoted', 'two words'],
    ['non-ASCII', '"clé"'],
    ['a control character', '"a\tb"'],
    ['repeated', ['a', 'b']],
  ])('refuses %s with 400 invalid-request', (_name, field) => {
    expect(() => idempotencyKeyOf(field)).toThrow(expect.objectContaining({ code: 'invalid-request', status: 400 }));
  });
});

describe('idempotencyRecordId', () => {
  it('tells callers and keys apart, also where their text would run together', () => {
    const ids = [
      idempotencyRecordId('ann', 'k'),
      idempotencyRecordId('bob', 'k'),
      idempotencyRecordId('ann', 'k2'),
      idempotencyRecordId('ann\nk', ''),
      idempotencyRecordId('an', 'n\nk'),
    ];
    expect(new Set(ids).size).toBe(ids.length);
    expect(idempotencyRecordId('ann', 'k')).toBe(ids[0]);
  });
});

describe('requestFingerprint', () => {
  it('is the same for the same request, and differs with method, target or body', () => {
    const base = requestFingerprint(request());
    expect(requestFingerprint(request({ headers: { other: 'x' } }))).toBe(base);
    for (const change of [
      { method: 'PATCH' },
      { path: '/api/rpc/post/update' },
      { query: 'q=1' },
      { body: { data: { title: 'b' } } },
      { body: undefined },
    ]) {
      expect(requestFingerprint(request(change))).not.toBe(base);
    }
  });
});
