import fc from 'fast-check';

import type { FieldMeta } from '../../metadata/model-meta.types.js';
import { keysetWhere } from './keyset-where.js';
import { reversedKeys, type SortKey } from './sort-keys.js';

type Row = Record<string, number | null>;

const field = (name: string, isOptional: boolean) => ({ name, isOptional }) as FieldMeta;

/** Evaluates the subset of Prisma's `where` that keysetWhere writes. */
function matches(row: Row, where: Record<string, unknown>): boolean {
  return Object.entries(where).every(([name, condition]) => {
    if (name === 'OR') return (condition as Record<string, unknown>[]).some((branch) => matches(row, branch));
    if (name === 'AND') return (condition as Record<string, unknown>[]).every((branch) => matches(row, branch));
    const value = row[name]!;
    if (condition === null || typeof condition === 'number') return value === condition;
    const { gt, lt, not } = condition as { gt?: number; lt?: number; not?: null };
    if (gt !== undefined) return value !== null && value > gt;
    if (lt !== undefined) return value !== null && value < lt;
    return not === null ? value !== null : false;
  });
}

/** The order keyset pages read: nulls greater than any value. */
function compare(keys: readonly SortKey[]): (a: Row, b: Row) => number {
  return (a, b) => {
    for (const { field: f, descending } of keys) {
      const [x, y] = [a[f.name]!, b[f.name]!];
      const order = x === y ? 0 : x === null ? 1 : y === null ? -1 : x - y;
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  };
}

describe('keysetWhere', () => {
  it('writes the seek condition of ascending and descending keys, ties going to the next key', () => {
    const keys = [
      { field: field('rating', false), descending: true },
      { field: field('id', false), descending: false },
    ];
    expect(keysetWhere(keys, [3, 10])).toEqual({
      OR: [{ rating: { lt: 3 } }, { AND: [{ rating: 3 }, { id: { gt: 10 } }] }],
    });
  });

  it('treats null as greater than every value: after a null ascending only ties remain; descending every non-null follows', () => {
    const optional = field('publishedAt', true);
    const id = { field: field('id', false), descending: false };
    expect(keysetWhere([{ field: optional, descending: false }, id], [null, 4])).toEqual({
      OR: [{ AND: [{ publishedAt: null }, { id: { gt: 4 } }] }],
    });
    expect(keysetWhere([{ field: optional, descending: true }, id], [null, 4]).OR).toContainEqual({
      publishedAt: { not: null },
    });
    expect(keysetWhere([{ field: optional, descending: false }, id], [5, 4]).OR).toContainEqual({
      OR: [{ publishedAt: { gt: 5 } }, { publishedAt: null }],
    });
  });

  it('selects exactly the rows after (and, reversed, before) any position, for compound ids, nulls and ties (generated)', () => {
    const value = fc.option(fc.integer({ min: 0, max: 3 }), { nil: null, freq: 3 });
    const shape = fc.record({
      descending: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
      rows: fc.uniqueArray(fc.tuple(value, value, fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), {
        minLength: 1,
        maxLength: 30,
        selector: ([, , a, b]) => `${a}_${b}`,
      }),
      at: fc.nat(),
    });
    fc.assert(
      fc.property(shape, ({ descending, rows: tuples, at }) => {
        // Two sort keys (one optional, one not made optional on purpose: values may still tie), then a compound id.
        const keys: SortKey[] = [
          { field: field('a', true), descending: descending[0]! },
          { field: field('b', true), descending: descending[1]! },
          { field: field('idA', false), descending: descending[2]! },
          { field: field('idB', false), descending: false },
        ];
        const rows: Row[] = tuples.map(([a, b, idA, idB]) => ({ a, b, idA, idB }));
        const sorted = [...rows].sort(compare(keys));
        const index = at % sorted.length;
        const position = keys.map((key) => sorted[index]![key.field.name]);
        expect(sorted.filter((row) => matches(row, keysetWhere(keys, position)))).toEqual(sorted.slice(index + 1));
        expect(sorted.filter((row) => matches(row, keysetWhere(reversedKeys(keys), position)))).toEqual(
          sorted.slice(0, index),
        );
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200), seed: Number(process.env.FUZZ_SEED ?? 7) },
    );
  });
});
