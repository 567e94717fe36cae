import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { modelsByClientName } from '../model-names.js';
import { TRANSACTION_MODEL } from '../offline/offline-mode.js';
import type { OfflineWrite } from '../offline/write-queue.js';
import { type CachedRead, withQueuedWrite } from './optimistic.js';

const names = modelsByClientName(modelMeta);
const apply = (read: Partial<CachedRead>, data: unknown, write: Partial<OfflineWrite>) =>
  withQueuedWrite(
    modelMeta,
    (name) => names.get(name) ?? name,
    { model: 'post', operation: 'findMany', args: {}, fluent: false, ...read },
    data,
    { key: 'k', model: 'post', operation: 'update', args: {}, ...write },
  );

const rows = [
  { id: 1, title: 'a', rating: 2, authorId: 1 },
  { id: 2, title: 'b', rating: 3, authorId: 1 },
];

describe('queued writes applied to cached reads', () => {
  it('changes the updated row: values, set, number operations and a connected foreign key', () => {
    const data = { title: 'A', rating: { increment: 1.5 }, content: { set: 'c' }, author: { connect: { id: 9 } } };
    expect(apply({}, rows, { args: { where: { id: 1 }, data } })).toEqual([
      { id: 1, title: 'A', rating: 3.5, content: 'c', authorId: 9 },
      rows[1],
    ]);
    expect(apply({ operation: 'findUnique' }, rows[1], { args: { where: { id: 2 }, data: { title: 'B' } } })).toEqual({
      ...rows[1],
      title: 'B',
    });
  });

  it('sets only the model’s own fields: a prototype key changes nothing', () => {
    const data = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "title": "A"}');
    const [changed] = apply({}, rows, { args: { where: { id: 1 }, data } }) as Record<string, unknown>[];
    expect(changed).toEqual({ ...rows[0], title: 'A' });
    expect(Object.getPrototypeOf(changed)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    // A where naming an inherited name matches no row.
    expect(apply({}, rows, { args: { where: { constructor: Object }, data: { title: 'B' } } })).toEqual(rows);
  });

  it('removes a deleted row, and a read of it answers null', () => {
    expect(apply({}, rows, { operation: 'delete', args: { where: { id: 2 } } })).toEqual([rows[0]]);
    expect(apply({ operation: 'findUnique' }, rows[1], { operation: 'delete', args: { where: { id: 2 } } })).toBe(null);
  });

  it('adds a created row, with its placeholder, to the unfiltered lists and counts only', () => {
    const write = { operation: 'create', args: { data: { title: 'new' } }, placeholders: { id: -5 } };
    expect(apply({ args: { orderBy: { id: 'desc' } } }, rows, write)).toEqual([{ title: 'new', id: -5 }, ...rows]);
    expect(apply({}, rows, write)).toEqual([...rows, { title: 'new', id: -5 }]);
    expect(apply({ args: { where: { published: true } } }, rows, write)).toBe(rows);
    expect(apply({ operation: 'count' }, 2, write)).toBe(3);
  });

  it('leaves other models, fluent reads and unknown operations as they are', () => {
    const write = { args: { where: { id: 1 }, data: { title: 'A' } } };
    expect(apply({ model: 'comment' }, rows, write)).toBe(rows);
    expect(apply({ fluent: true }, rows, write)).toBe(rows);
    expect(apply({}, rows, { ...write, operation: 'updateMany' })).toBe(rows);
  });

  it('applies the steps of a batch to the reads of their models', () => {
    const batch = [
      { model: 'post', op: 'update', args: { where: { id: 2 }, data: { title: 'B' } } },
      { model: 'comment', op: 'create', args: { data: { body: 'x' } } },
    ];
    expect(apply({}, rows, { model: TRANSACTION_MODEL, operation: 'sequential', args: batch })).toEqual([
      rows[0],
      { ...rows[1], title: 'B' },
    ]);
  });
});
