import fc from 'fast-check';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { FootprintIndex } from './footprint-index.js';
import { ReadFootprint, type RowChange } from './read-footprint.js';

const Post = modelMeta.models.Post!;
const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261127), numRuns: Number(process.env.FUZZ_RUNS ?? 200) };

/** A footprint that noted one query on Post. */
function footprintOf(args: unknown, operation = 'findMany'): ReadFootprint {
  const reads = new ReadFootprint();
  reads.note(modelMeta, Post, operation, args);
  return reads;
}

const ownDrafts = (authorId: number) => ({
  where: { AND: [{ published: false }, { OR: [{ published: true }, { authorId }] }] },
});

/** Where a placeholder stands for each footprint's own value (a caller's id). */
const OWN = Symbol('own');

/** Wheres on Post of a few fields, some with `OWN` in them. */
const wheres = fc.letrec<{ where: unknown }>((tie) => ({
  where: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ published: fc.boolean() }),
    fc.record({ authorId: fc.constantFrom<unknown>(1, 2, OWN, null, { equals: OWN }, { not: 2 }, { in: [1, 3] }) }),
    fc.record({ title: fc.constantFrom<unknown>('a', 'b', { contains: 'a' }, { equals: 'b' }) }),
    fc.record({ status: fc.constantFrom('DRAFT', 'PUBLISHED') }),
    fc.record({ rating: fc.constantFrom<unknown>({ gt: 1 }, 2, { lte: 2 }) }),
    fc.record({ content: fc.constantFrom<unknown>(null, { not: null }, 'a') }),
    fc.record({ AND: fc.array(tie('where'), { maxLength: 3 }) }),
    fc.record({ OR: fc.array(tie('where'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ NOT: tie('where') }),
  ),
})).where;

const fill = (where: unknown, own: number): unknown =>
  where === OWN
    ? own
    : Array.isArray(where)
      ? where.map((item) => fill(item, own))
      : where !== null && typeof where === 'object'
        ? Object.fromEntries(Object.entries(where).map(([key, value]) => [key, fill(value, own)]))
        : where;

const rows = fc.record({
  id: fc.integer({ min: 1, max: 5 }),
  title: fc.constantFrom('a', 'b', 'ab', '\uD800a'),
  content: fc.constantFrom(null, 'a', 'b'),
  status: fc.constantFrom('DRAFT', 'PUBLISHED'),
  published: fc.boolean(),
  rating: fc.constantFrom(0, 1.5, 2, 3),
  authorId: fc.integer({ min: 1, max: 4 }),
});

const changes = fc.array(
  fc.record({ model: fc.constantFrom('Post', 'User'), before: rows, after: rows }, { requiredKeys: ['model'] }),
  { minLength: 1, maxLength: 3 },
);

/** The footprints each of which a change concerns, one by one: what the index must find. */
const concernedOneByOne = (footprints: ReadFootprint[], given: RowChange[]) =>
  new Set(footprints.filter((footprint) => given.some((change) => footprint.concerns(change))));

describe('FootprintIndex', () => {
  it('finds the footprints a change concerns, as checking each one does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ where: wheres, include: fc.boolean() }), { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 6 }),
        changes,
        fc.nat(),
        (templates, owners, given, dropped) => {
          const footprints = templates.flatMap(({ where, include }) =>
            owners.map((own) =>
              footprintOf({ where: fill(where, own), ...(include ? { include: { author: true } } : {}) }),
            ),
          );
          // Each footprint its own holder.
          const index = new FootprintIndex<unknown>('sqlite');
          for (const footprint of footprints) index.add(footprint, footprint);
          // Held by two, left by one: still indexed. Left by its only holder: no longer.
          index.add(footprints[0]!, 'another');
          index.remove(footprints[0]!, 'another');
          const gone = footprints.splice(dropped % footprints.length, 1)[0]!;
          index.remove(gone, gone);
          expect(index.concerned(given as RowChange[])).toEqual(concernedOneByOne(footprints, given as RowChange[]));
        },
      ),
      RUNS,
    );
  });

  it('checks a row against the queries of many callers of one shape a few times, not once per caller', () => {
    const index = new FootprintIndex<ReadFootprint>('sqlite');
    const footprints = Array.from({ length: 1000 }, (_, n) => footprintOf(ownDrafts(n + 1)));
    for (const footprint of footprints) index.add(footprint, footprint);
    let reads = 0;
    const row = new Proxy(
      { id: 1, title: 'a', published: false, authorId: 7 },
      {
        get: (target, key) => {
          reads++;
          return Reflect.get(target, key);
        },
      },
    );
    const found = index.concerned([{ model: 'Post', before: row, after: row }]);
    expect([...found]).toEqual([footprints[6]]);
    expect(reads).toBeLessThan(20);
  });
});
