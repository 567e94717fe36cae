import { readsDeletedRows } from './with-deleted.js';

const refusal = expect.objectContaining({
  code: 'invalid-query-parameter',
  options: { source: { parameter: 'withDeleted' } },
});

describe('readsDeletedRows', () => {
  it('is on for withDeleted=true on a call that takes it, off without the parameter', () => {
    expect(readsDeletedRows({ withDeleted: 'true' }, 'findMany', true)).toBe(true);
    expect(readsDeletedRows({ q: '{}' }, 'findMany', true)).toBe(false);
    expect(readsDeletedRows({}, 'update', false)).toBe(false);
  });

  it.each([['yes'], ['false'], [''], [['true', 'true']]])('refuses the value %j', (value) => {
    expect(() => readsDeletedRows({ withDeleted: value }, 'findMany', true)).toThrow(refusal);
  });

  it('refuses the parameter on a call that does not take it', () => {
    expect(() => readsDeletedRows({ withDeleted: 'true' }, 'update', false)).toThrow(refusal);
  });
});
