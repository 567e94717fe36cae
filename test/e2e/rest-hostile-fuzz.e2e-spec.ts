import fc from 'fast-check';

import { snapshotDatabase } from '../support/db-snapshot.js';
import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/**
 * Generated hostile requests against every REST route kind. Seeded and small by default; set
 * FUZZ_RUNS (and FUZZ_SEED) for a longer search: `FUZZ_RUNS=2000 npm test -- rest-hostile-fuzz`.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
/** Generous: a hostile request that takes this long is a hang. */
const CLIENT_TIMEOUT_MS = 10_000;

const JSON_API = 'application/vnd.api+json';
/** Stands for a deeply nested value until the document is rendered as text. */
const DEEP = '@@DEEP@@';

/** One `name=value` query part, percent-encoded as a client would send it. */
const part = (name: string, value: string) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;

/** Query parts the server must refuse, whatever else the query holds. */
const refusedQueryPart: fc.Arbitrary<string> = fc.oneof(
  fc
    .array(fc.constantFrom('author', 'posts', 'comments', 'tags', 'post', 'parent', 'title', 'x'), {
      minLength: 5,
      maxLength: 40,
    })
    .map((selectors) => part(`filter[${selectors.join('][')}]`, 'x')),
  fc
    .tuple(
      // Names JSON:API reserves (all a-z), none at all, or ones that break its naming rules:
      // legal implementation-specific ones are ignored.
      fc.constantFrom(
        'constructor',
        'prototype',
        'q',
        '[filter]',
        'pagee',
        'filters',
        'includes',
        '__proto__',
        'filter]',
        'filter\u0000',
        'x_',
        '-x',
        'my.param',
      ),
      fc.constantFrom('', '[x]', '[title]', '[]'),
    )
    .map(([family, suffix]) => part(`${family}${suffix}`, '1')),
  fc.integer({ min: 1001, max: 20_000 }).map((length) => part('filter[title]', 'x'.repeat(length))),
  fc.constantFrom(
    part('filter[id]', '2147483648'),
    part('filter[id$lt]', '-2147483649'),
    part('filter[views]', '9223372036854775808'),
    part('filter[rating$gt]', '1e400'),
    part('filter[publishedAt$gte]', '+010000-01-01T00:00:00Z'),
    part('filter[publishedAt]', '2023-02-29'),
    part('fields[__proto__]', 'title'),
    part('fields[post]', '__proto__'),
    part('filter[__proto__]', '1'),
    part('filter[constructor][prototype]', '1'),
    part('sort', '__proto__'),
    part('sort', 'author.author.author.author.author.name'),
    part('include', 'constructor'),
    part('include', 'comments.post.comments.post'),
    part('page[__proto__]', '1'),
    part('page[limit]', '-1'),
  ),
);

/** Bracket soup: anything may come of it, but never a 5xx or a hang. */
const soupQueryPart: fc.Arbitrary<string> = fc
  .tuple(
    fc.array(fc.constantFrom('[', ']', 'filter', 'sort', 'a', '$', '[]', '.', '%', '__proto__', '$gt'), {
      minLength: 1,
      maxLength: 12,
    }),
    fc.string({ maxLength: 20 }),
  )
  .map(([pieces, value]) => part(pieces.join(''), value));

const benignQueryPart = fc.constantFrom(
  'sort=-title',
  'page[limit]=2',
  'include=author',
  'fields[post]=title',
  'filter[published]=true',
);

/** What a status says about the server: a 5xx is our bug, whatever the request. */
const outcome = (status: number) => (status >= 500 ? '5xx' : status >= 400 ? '4xx' : '2xx');

/** A document mutation that makes any write request refused, applied to a valid document. */
type Mutation = (document: Record<string, any>) => void;

/** An object with an own prototype key, as `JSON.parse` makes it (assignment would set the prototype). */
const protoObject = (key: string) => JSON.parse(`{"${key}":{"polluted":true}}`) as Record<string, unknown>;
const defineOwn = (target: Record<string, unknown>, key: string) =>
  Object.defineProperty(target, key, {
    value: { polluted: true },
    enumerable: true,
    writable: true,
    configurable: true,
  });

const resourceMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom('errors', 'foo', 'Data', 'include', '__x').map(
    (name): Mutation =>
      (d) =>
        void (d[name] = []),
  ),
  fc.constantFrom('foo', 'Attributes', 'included', 'errors').map(
    (name): Mutation =>
      (d) =>
        void (d.data[name] = {}),
  ),
  fc
    .tuple(
      fc.constantFrom('attributes', 'relationships', 'meta', 'links'),
      fc.constantFrom<unknown>('x', 1, true, [], [1]),
    )
    .map(
      ([member, value]): Mutation =>
        (d) =>
          void (d.data[member] = value),
    ),
  fc.constantFrom<unknown>(5, [], { id: 1 }, null).map(
    (value): Mutation =>
      (d) =>
        void (d.data.type = value),
  ),
  fc.constantFrom('meta', 'jsonapi', 'links').map(
    (member): Mutation =>
      (d) =>
        void (d[member] = 'text'),
  ),
  fc.integer({ min: 33, max: 5000 }).map((depth): Mutation => (d) => {
    d.data.attributes.metadata = DEEP;
    d.depth = depth;
  }),
  fc
    .constantFrom<[string, unknown]>(
      ['authorId', 2 ** 31],
      ['rating', 'Infinity'],
      ['views', '9223372036854775808'],
      ['views', '-9223372036854775809'],
      ['views', 1.5],
      ['publishedAt', '+010000-01-01T00:00:00.000Z'],
      ['publishedAt', '2024-02-30T00:00:00Z'],
      ['publishedAt', '1'],
    )
    .map(
      ([name, value]): Mutation =>
        (d) =>
          void (d.data.attributes[name] = value),
    ),
  fc
    .tuple(
      fc.constantFrom('__proto__', 'constructor', 'prototype'),
      fc.constantFrom('attributes', 'metadata', 'meta', 'top'),
    )
    .map(([key, where]): Mutation => (d) => {
      if (where === 'attributes') defineOwn(d.data.attributes, key);
      else if (where === 'metadata') d.data.attributes.metadata = { nested: [protoObject(key)] };
      else if (where === 'meta') d.data.meta = protoObject(key);
      else defineOwn(d, key);
    }),
  fc.constantFrom('extra', 'attributes', 'links').map((member): Mutation => (d) => {
    d.data.relationships = { author: { data: { type: 'user', id: 1, [member]: {} } } };
  }),
);

const linkageMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom('errors', 'foo').map(
    (name): Mutation =>
      (d) =>
        void (d[name] = []),
  ),
  fc.constantFrom('attributes', 'relationships', 'extra', 'links').map(
    (member): Mutation =>
      (d) =>
        void (d.data[0][member] = {}),
  ),
  fc.constantFrom<unknown>('x', 1, { type: 'tag' }, null).map(
    (data): Mutation =>
      (d) =>
        void (d.data = data),
  ),
  fc.integer({ min: 33, max: 3000 }).map((depth): Mutation => (d) => {
    d.meta = DEEP;
    d.depth = depth;
  }),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map(
    (key): Mutation =>
      (d) =>
        void (d.data[0].meta = protoObject(key)),
  ),
);

/** Corruptions of an Atomic Operations document around a valid `add` operation. */
const atomicMutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.constantFrom<unknown>('x', 1, {}, null, []).map(
    (operations): Mutation =>
      (d) =>
        void (d['atomic:operations'] = operations),
  ),
  fc.constantFrom('errors', 'data', 'atomic:results', 'foo').map(
    (name): Mutation =>
      (d) =>
        void (d[name] = []),
  ),
  fc.constantFrom<unknown>('nope', 'ADD', 1, null, '__proto__').map(
    (op): Mutation =>
      (d) =>
        void (d['atomic:operations'][0].op = op),
  ),
  fc
    .constantFrom<unknown>(
      { type: 'post', id: 'nope' },
      { type: 'nope', id: '1' },
      { type: 'post', lid: 'unknown' },
      { type: 'post', relationship: 'nope', id: '1' },
      'x',
      [],
    )
    .map(
      (ref): Mutation =>
        (d) =>
          void (d['atomic:operations'][0].ref = ref),
    ),
  fc.constantFrom('href', 'foo', 'attributes').map(
    (member): Mutation =>
      (d) =>
        void (d['atomic:operations'][0][member] = '/post'),
  ),
  fc.integer({ min: 2, max: 60 }).map(
    (count): Mutation =>
      (d) =>
        void (d['atomic:operations'] = Array.from({ length: count }, () => d['atomic:operations'][0]).concat([
          { op: 'remove', ref: { type: 'post', id: '999999' } },
        ])),
  ),
  fc.constantFrom('__proto__', 'constructor', 'prototype').map(
    (key): Mutation =>
      (d) =>
        defineOwn(d['atomic:operations'][0], key),
  ),
);

/** The document as JSON text, with the deep value (if any) spliced in as text. */
function render(document: Record<string, any>): string {
  const { depth, ...body } = document;
  const text = JSON.stringify(body);
  return depth ? text.replace(`"${DEEP}"`, `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`) : text;
}

describe.each(testProviders())('REST generated hostile input (%s)', (provider) => {
  let f: BlogFixture;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });

  const getRoutes = () => [
    '/post',
    `/post/${f.hello}`,
    `/post/${f.hello}/comments`,
    `/post/${f.hello}/relationships/tags`,
    '/user',
    `/user/${f.alice}/posts`,
  ];

  async function request(method: 'get' | 'post' | 'patch' | 'delete', url: string, body?: string) {
    const call = t.http()[method](`/api/rest${url}`).timeout(CLIENT_TIMEOUT_MS);
    const res = await (body === undefined ? call : call.set('Content-Type', JSON_API).send(body));
    return { status: res.status, body: res.body };
  }

  /** A write that must be refused: 4xx, and not one row changed. */
  async function expectRefusedWrite(method: 'post' | 'patch' | 'delete', url: string, body?: string) {
    const before = await snapshotDatabase(t.db);
    const res = await request(method, url, body);
    expect({ url, body: body?.slice(0, 300), outcome: outcome(res.status) }).toEqual({
      url,
      body: body?.slice(0, 300),
      outcome: '4xx',
    });
    expect(await snapshotDatabase(t.db)).toEqual(before);
  }

  it('refuses generated hostile query strings on every GET route, and survives bracket soup', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...getRoutes()),
        fc.array(refusedQueryPart, { minLength: 1, maxLength: 3 }),
        fc.array(fc.oneof(benignQueryPart, soupQueryPart), { maxLength: 3 }),
        async (route, refused, others) => {
          const search = [...others, ...refused].join('&');
          const res = await request('get', `${route}?${search}`);
          expect({ search, outcome: outcome(res.status) }).toEqual({ search, outcome: '4xx' });
          const soup = await request('get', `${route}?${others.join('&')}`);
          expect({ others, outcome: outcome(soup.status) }).toEqual({
            others,
            outcome: expect.stringMatching(/^(2|4)xx$/),
          });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses generated hostile resource documents on create and update, writing nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), resourceMutation, async (create, mutate) => {
        const document: Record<string, any> = {
          data: {
            type: 'post',
            ...(create ? {} : { id: f.hello }),
            attributes: { title: 'fuzz' },
            relationships: { author: { data: { type: 'user', id: f.alice } } },
          },
        };
        mutate(document);
        await expectRefusedWrite(create ? 'post' : 'patch', create ? '/post' : `/post/${f.hello}`, render(document));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses generated hostile Atomic Operations documents, writing nothing', async () => {
    const atomic = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          resourceMutation.map((m) => ['data', m] as const),
          atomicMutation.map((m) => ['document', m] as const),
        ),
        async ([target, mutate]) => {
          const operation: Record<string, any> = {
            op: 'add',
            data: {
              type: 'post',
              attributes: { title: 'fuzz' },
              relationships: { author: { data: { type: 'user', id: f.alice } } },
            },
          };
          const document: Record<string, any> = { 'atomic:operations': [operation] };
          if (target === 'data') {
            // A resource mutation applied to the operation, whose `data` is the resource object.
            mutate(operation);
            if (operation.depth) [document.depth, operation.depth] = [operation.depth, undefined];
          } else mutate(document);
          const before = await snapshotDatabase(t.db);
          const body = render(document);
          const res = await t
            .http()
            .post('/api/rest/operations')
            .timeout(CLIENT_TIMEOUT_MS)
            .set('Content-Type', atomic)
            .set('Accept', atomic)
            .send(body);
          expect({ body: body.slice(0, 300), outcome: outcome(res.status) }).toEqual({
            body: body.slice(0, 300),
            outcome: '4xx',
          });
          expect(await snapshotDatabase(t.db)).toEqual(before);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses generated hostile relationship bodies and hostile queries on deletes, writing nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('post', 'patch', 'delete') as fc.Arbitrary<'post' | 'patch' | 'delete'>,
        linkageMutation,
        refusedQueryPart,
        async (method, mutate, query) => {
          const document: Record<string, any> = { data: [{ type: 'tag', id: f.news }] };
          mutate(document);
          await expectRefusedWrite(method, `/post/${f.hello}/relationships/tags`, render(document));
          await expectRefusedWrite('delete', `/comment/${f.anonymous}?${query}`);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
