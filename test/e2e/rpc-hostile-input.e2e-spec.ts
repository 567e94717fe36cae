import fc from 'fast-check';

import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/**
 * Generated hostile arguments: random trees of known and unknown keys, prototype keys, values of
 * every wrong type, huge numbers and deep nesting, sent to reads and writes. Every answer must be
 * 2xx or a 4xx, never a 5xx, and a refused write must leave the database as it was. Seeded and
 * small by default; `FUZZ_RUNS=2000` runs more, `FUZZ_SEED` picks another seed.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** A JSON tree kept as entries, so that `__proto__` keys survive until they are written as text. */
type Tree = { json: string } | { entries: [string, Tree][] } | { items: Tree[] };

function toJson(tree: Tree): string {
  if ('json' in tree) return tree.json;
  if ('items' in tree) return `[${tree.items.map(toJson).join(',')}]`;
  return `{${tree.entries.map(([key, value]) => `${JSON.stringify(key)}:${toJson(value)}`).join(',')}}`;
}

const KEYS = [
  'where',
  'select',
  'include',
  'omit',
  'orderBy',
  'cursor',
  'take',
  'skip',
  'distinct',
  'data',
  'limit',
  'by',
  'having',
  '_count',
  '_all',
  '_sum',
  '_min',
  'id',
  'name',
  'title',
  'views',
  'rating',
  'createdAt',
  'posts',
  'tags',
  'author',
  'AND',
  'OR',
  'NOT',
  'equals',
  'in',
  'not',
  'lt',
  'gte',
  'contains',
  'startsWith',
  'endsWith',
  'mode',
  'some',
  'every',
  'none',
  'is',
  'set',
  'increment',
  'push',
  'create',
  'connect',
  'disconnect',
  'sort',
  'nulls',
  'path',
  'nope',
  '__proto__',
  'constructor',
  'prototype',
];

const leaf: fc.Arbitrary<Tree> = fc
  .oneof(
    fc.integer({ min: -3, max: 5 }),
    fc.constantFrom(1.5, -1, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 0.1),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom(
      'asc',
      'desc',
      'DRAFT',
      'insensitive',
      'first',
      '%',
      '_',
      '\\',
      'x\\',
      '50%',
      '99999-01-01',
      '2024-01-01T00:00:00Z',
      '9'.repeat(30),
      'one',
    ),
    fc.string({ maxLength: 8 }),
  )
  .map((value) => ({ json: JSON.stringify(value) }));

const { tree } = fc.letrec<{ tree: Tree; node: Tree }>((arb) => ({
  tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, arb('node')),
  node: fc.oneof(
    fc.array(fc.tuple(fc.constantFrom(...KEYS), arb('tree')), { maxLength: 4 }).map((entries) => ({ entries })),
    fc.array(arb('tree'), { maxLength: 3 }).map((items) => ({ items })),
    // Deep nesting, past every limit.
    fc
      .tuple(fc.constantFrom('AND', 'include', 'select', 'data'), fc.integer({ min: 10, max: 400 }), arb('tree'))
      .map(([key, levels, inner]) => {
        let nested = inner;
        for (let i = 0; i < levels; i++) nested = { entries: [[key, nested]] };
        return nested;
      }),
  ),
}));

const topLevel = fc
  .array(fc.tuple(fc.constantFrom(...KEYS.slice(0, 14), 'nope', '__proto__'), tree), { maxLength: 4 })
  .map((entries) => toJson({ entries }));

const OPERATIONS = [
  { method: 'get', path: 'post/findMany' },
  { method: 'get', path: 'post/count' },
  { method: 'get', path: 'post/groupBy' },
  { method: 'get', path: 'user/findFirst' },
  { method: 'get', path: 'tag/findUniqueOrThrow' },
  { method: 'delete', path: 'tag/deleteMany' },
  { method: 'delete', path: 'tag/delete' },
  { method: 'patch', path: 'tag/updateMany' },
  { method: 'patch', path: 'post/update' },
  { method: 'post', path: 'tag/create' },
  { method: 'post', path: 'tag/createMany' },
  { method: 'post', path: 'tag/upsert' },
] as const;

/** A step of a sequential transaction: a model and operation (known or not) and generated arguments, or anything else. */
const transactionStep = fc.oneof(
  fc
    .record({
      model: fc.constantFrom('Post', 'post', 'Tag', 'tag', 'User', 'Nope', '__proto__', '$transaction'),
      op: fc.constantFrom(
        'create',
        'update',
        'updateMany',
        'delete',
        'deleteMany',
        'findMany',
        'upsert',
        'count',
        'nope',
        'constructor',
      ),
      args: fc.oneof(topLevel, tree.map(toJson)),
    })
    .map(({ model, op, args }) => `{"model":${JSON.stringify(model)},"op":${JSON.stringify(op)},"args":${args}}`),
  tree.map(toJson),
);

/** Transaction bodies: arrays of steps, ZenStack's envelopes around them, or any other JSON. */
const transactionBody = fc.oneof(
  fc.array(transactionStep, { maxLength: 25 }).map((steps) => `[${steps.join(',')}]`),
  fc
    .tuple(fc.array(transactionStep, { maxLength: 4 }), tree.map(toJson))
    .map(([steps, meta]) => `{"data":[${steps.join(',')}],"meta":${meta}}`),
  fc.array(transactionStep, { maxLength: 4 }).map((steps) => `{${steps.map((step, i) => `"${i}":${step}`).join(',')}}`),
  tree.map(toJson),
);

describe.each(testProviders())('RPC hostile input (%s)', (provider) => {
  const t = useTestApp(provider, {
    seed: async () => {
      const author = await t.db.prisma.user.create({ data: { email: 'h@example.com', name: 'H' } });
      for (const title of ['one', 'two'])
        await t.db.prisma.post.create({ data: { title, authorId: author.id, tags: { create: { name: title } } } });
    },
  });

  /** Every row a write could touch. */
  const snapshot = async () =>
    JSON.stringify(
      [
        await t.db.prisma.tag.findMany({ orderBy: { id: 'asc' } }),
        await t.db.prisma.post.findMany({ orderBy: { id: 'asc' } }),
        await t.db.prisma.user.findMany({ orderBy: { id: 'asc' } }),
      ],
      (_key, value) => (typeof value === 'bigint' ? value.toString() : value),
    );

  it('answers every generated request with 2xx or 4xx, and a refused write changes nothing', async () => {
    let before = await snapshot();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...OPERATIONS), topLevel, async ({ method, path }, args) => {
        const url = `/api/rpc/${path}`;
        const request = t.http()[method](url);
        const res = await (method === 'get' || method === 'delete'
          ? request.query({ q: args })
          : request.set('content-type', 'application/json').send(args));
        expect(res.status).toBeLessThan(500);
        if (method === 'get') return;
        const after = await snapshot();
        if (res.status >= 400) expect(after).toBe(before);
        before = after;
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('answers every generated sequential transaction with 2xx or 4xx, and a refused one changes nothing', async () => {
    let before = await snapshot();
    await fc.assert(
      fc.asyncProperty(transactionBody, async (body) => {
        const res = await t
          .http()
          .post('/api/rpc/$transaction/sequential')
          .set('content-type', 'application/json')
          .send(body);
        expect(res.status).toBeLessThan(500);
        const after = await snapshot();
        if (res.status >= 400) expect(after).toBe(before);
        before = after;
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
