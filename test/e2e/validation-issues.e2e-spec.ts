/**
 * One 400 lists every problem of a write (values of the wrong type or enum, a validator's issues on
 * columns and virtual fields, a hook's several issues), each at its pointer or argument path.
 * Generated (fast-check, seeded; FUZZ_RUNS for a longer run, FUZZ_SEED to replay): random subsets of
 * bad members in every write shape of both interfaces; the answer lists exactly their places and
 * the database is left as it was.
 */
import fc from 'fast-check';
import { z } from 'zod';

import { type CrudApiRules, RuleError, type RuleIssue } from '../../lib/index.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { callRpc } from '../support/rpc-client.js';
import { type TestAppHandle, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 4417);
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

/** The post hook's own checks: several issues in one `RuleError`. */
function postHook({ data }: { data: Record<string, any> }): void {
  const issues: RuleIssue[] = [];
  if (data.price !== undefined && Number(data.price) < 0)
    issues.push({ path: ['price'], message: 'A price is never negative.', code: 'negative' });
  if (data.publishedAt !== undefined && new Date(data.publishedAt).getUTCFullYear() < 2000)
    issues.push({ path: ['publishedAt'], message: 'Too early.', code: 'too-early' });
  if (issues.length > 0) throw new RuleError(issues);
}

const postSchema = {
  title: z.string().min(1),
  content: z.string().max(40).nullish(),
  slug: z
    .string()
    .regex(/^[a-z-]+$/)
    .optional(),
};

const rules: CrudApiRules = {
  Post: {
    // `slug` exists on the wire only: the validator must see it.
    virtual: { slug: { type: 'String' } },
    beforeCreate: postHook,
    beforeUpdate: postHook,
    validate: { create: z.object(postSchema), update: z.object(postSchema).partial() },
  },
};

/** How a member goes wrong, and where the problem is reported from. */
type Kind = 'type' | 'enum' | 'validator' | 'hook';

/** The members the generator may spoil, each with a bad value and the kind of its problem. */
const BAD: Record<string, { value: unknown; kind: Kind }> = {
  title: { value: 123, kind: 'type' },
  rating: { value: 'high', kind: 'type' },
  published: { value: 'yes', kind: 'type' },
  status: { value: 'GONE', kind: 'enum' },
  content: { value: 'x'.repeat(41), kind: 'validator' },
  slug: { value: 'Not A Slug', kind: 'validator' },
  price: { value: '-5', kind: 'hook' },
  publishedAt: { value: '1999-01-01T00:00:00.000Z', kind: 'hook' },
};
const MEMBERS = Object.keys(BAD);
const GOOD: Record<string, unknown> = {
  title: 'A title',
  rating: 2,
  published: true,
  status: 'PUBLISHED',
  content: 'fine',
  slug: 'a-slug',
  price: '5',
  publishedAt: '2024-01-01T00:00:00.000Z',
};

/** A post's data with `bad` spoiled (the others valid). */
const postData = (bad: readonly string[]) =>
  Object.fromEntries(MEMBERS.map((name) => [name, bad.includes(name) ? BAD[name]!.value : GOOD[name]]));

/**
 * The members a data object's 400 names: all it spoiled, except that a hook does not run on data
 * holding a value of the wrong type, so its issues are there only when no such value is.
 */
function expectedMembers(bad: readonly string[]): string[] {
  const typed = bad.some((name) => BAD[name]!.kind === 'type' || BAD[name]!.kind === 'enum');
  return bad.filter((name) => !typed || BAD[name]!.kind !== 'hook');
}

/** At least one bad member. */
const badSubset = fc.subarray(MEMBERS, { minLength: 1 });

describe.each(testProviders())('every problem of a write in one 400 (%s)', (provider) => {
  const ids = { author: 0, post: 0 };
  const t = useTestApp(provider, {
    options: { rules },
    seed: async (app) => {
      ids.author = (await app.db.prisma.user.create({ data: { email: 'v@x.test', name: 'V' } })).id;
      ids.post = (await app.db.prisma.post.create({ data: { title: 'Seed', authorId: ids.author } })).id;
    },
  });

  /** Runs a refused request: 400 `validation-failed`, nothing written; answers its body. */
  async function refused(send: () => Promise<{ status: number; body: any }>): Promise<any> {
    const before = await snapshotDatabase(t.db);
    const res = await send();
    expect(res.status).toBe(400);
    expect(await snapshotDatabase(t.db)).toBe(before);
    return res.body;
  }

  const restPointers = (body: any) => {
    for (const error of body.errors) expect(error.code).toBe('validation-failed');
    return body.errors.map((error: any) => error.source?.pointer).sort();
  };
  const rpcPaths = (body: any) => {
    expect(body.error.errorCode).toBe('validation-failed');
    return body.error.issues.map((issue: any) => issue.path).sort();
  };
  const places = (prefix: string, members: string[]) => members.map((name) => `${prefix}${name}`).sort();

  const rest = (method: 'post' | 'patch', url: string, body: unknown, contentType = JSON_API) =>
    t.http()[method](url).set({ 'Content-Type': contentType, Accept: contentType }).send(JSON.stringify(body));

  const restShapes: { name: string; send: (bad: string[]) => Promise<any>; prefix: string }[] = [
    {
      name: 'create',
      prefix: '/data/attributes/',
      send: (bad) =>
        rest('post', '/api/rest/post', {
          data: { type: 'post', attributes: { ...postData(bad), authorId: ids.author } },
        }),
    },
    {
      name: 'update',
      prefix: '/data/attributes/',
      send: (bad) =>
        rest('patch', `/api/rest/post/${ids.post}`, {
          data: { type: 'post', id: String(ids.post), attributes: postData(bad) },
        }),
    },
    {
      name: 'atomic update after a valid add',
      prefix: '/atomic:operations/1/data/attributes/',
      send: (bad) =>
        rest(
          'post',
          '/api/rest/operations',
          {
            'atomic:operations': [
              { op: 'add', data: { type: 'post', attributes: { ...postData([]), authorId: ids.author } } },
              { op: 'update', data: { type: 'post', id: String(ids.post), attributes: postData(bad) } },
            ],
          },
          ATOMIC,
        ),
    },
  ];

  it.each(restShapes.map((shape) => [shape.name, shape] as const))(
    'REST %s: the 400 points at exactly the bad members',
    async (_name, shape) => {
      await fc.assert(
        fc.asyncProperty(badSubset, async (bad) => {
          const body = await refused(() => shape.send(bad));
          expect(restPointers(body)).toEqual(places(shape.prefix, expectedMembers(bad)));
        }),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );

  /** RPC write shapes: each places one or two generated data objects, at the paths given. */
  const rpcShapes: {
    name: string;
    slots: number;
    send: (data: Record<string, unknown>[]) => Promise<any>;
    prefixes: string[];
  }[] = [
    {
      name: 'create',
      slots: 1,
      prefixes: ['data.'],
      send: ([data]) => callRpc(t, 'post', 'post/create', { data: { ...data, authorId: ids.author } }),
    },
    {
      name: 'update',
      slots: 1,
      prefixes: ['data.'],
      send: ([data]) => callRpc(t, 'patch', 'post/update', { where: { id: ids.post }, data }),
    },
    {
      name: 'upsert (update branch)',
      slots: 1,
      prefixes: ['update.'],
      send: ([data]) =>
        callRpc(t, 'post', 'post/upsert', {
          where: { id: ids.post },
          create: { ...postData([]), authorId: ids.author },
          update: data,
        }),
    },
    {
      name: 'createMany',
      slots: 2,
      prefixes: ['data[0].', 'data[1].'],
      send: (items) =>
        callRpc(t, 'post', 'post/createMany', { data: items.map((item) => ({ ...item, authorId: ids.author })) }),
    },
    {
      name: 'nested create and update under a user',
      slots: 2,
      prefixes: ['data.posts.create[0].', 'data.posts.update[0].data.'],
      send: ([created, updated]) =>
        callRpc(t, 'patch', 'user/update', {
          where: { id: ids.author },
          data: {
            name: 'Renamed',
            posts: { create: [created], update: [{ where: { id: ids.post }, data: updated }] },
          },
        }),
    },
  ];

  it.each(rpcShapes.map((shape) => [shape.name, shape] as const))(
    'RPC %s: the 400 lists exactly the bad members',
    async (_name, shape) => {
      const subsets = fc.array(fc.subarray(MEMBERS), { minLength: shape.slots, maxLength: shape.slots });
      await fc.assert(
        fc.asyncProperty(
          subsets.filter((all) => all.some((bad) => bad.length > 0)),
          async (all) => {
            const body = await refused(() => shape.send(all.map(postData)));
            const expected = all.flatMap((bad, index) => places(shape.prefixes[index]!, expectedMembers(bad)));
            expect(rpcPaths(body)).toEqual(expected.sort());
          },
        ),
        { seed: SEED, numRuns: RUNS },
      );
    },
  );

  it('reports a hook refusal with the validator issues, and the type issue of a nested write with both', async () => {
    const body = await refused(() =>
      callRpc(t, 'patch', 'user/update', {
        where: { id: ids.author },
        data: { posts: { create: [postData(['price', 'slug']), postData(['status'])] } },
      }),
    );
    expect(body.error.issues).toEqual(
      expect.arrayContaining([
        { path: 'data.posts.create[0].price', message: 'A price is never negative.', code: 'negative' },
        { path: 'data.posts.create[0].slug', message: expect.any(String), code: 'invalid_format' },
        { path: 'data.posts.create[1].status', message: expect.stringContaining('DRAFT'), code: 'invalid-enum' },
      ]),
    );
    expect(body.error.issues).toHaveLength(3);
  });

  it('refuses a value of the wrong type in the upsert branch that does not run, top-level and nested', async () => {
    const top = await refused(() =>
      callRpc(t, 'post', 'post/upsert', {
        where: { id: ids.post },
        create: { ...postData(['status']), authorId: ids.author },
        update: postData([]),
      }),
    );
    expect(rpcPaths(top)).toEqual(['create.status']);
    const nested = await refused(() =>
      callRpc(t, 'patch', 'user/update', {
        where: { id: ids.author },
        data: { posts: { upsert: [{ where: { id: ids.post }, create: postData(['rating']), update: postData([]) }] } },
      }),
    );
    expect(rpcPaths(nested)).toEqual(['data.posts.upsert[0].create.rating']);
  });

  it('keeps an invalid foreign-key attribute when a relationship names the same column', async () => {
    const body = await refused(() =>
      rest('post', '/api/rest/post', {
        data: {
          type: 'post',
          attributes: { ...postData(['status']), authorId: 2 ** 31 },
          relationships: { author: { data: { type: 'user', id: String(ids.author) } } },
        },
      }),
    );
    expect(restPointers(body)).toEqual(['/data/attributes/authorId', '/data/attributes/status']);
  });

  it('writes the data once every problem is gone, the virtual field validated and dropped', async () => {
    const res = await rest('post', '/api/rest/post', {
      data: { type: 'post', attributes: { ...postData([]), authorId: ids.author } },
    }).expect(201);
    expect(res.body.data.attributes).toMatchObject({ title: 'A title', status: 'PUBLISHED' });
    expect(res.body.data.attributes).not.toHaveProperty('slug');
  });
});

describe.each(testProviders())('every value of the wrong type in one 400, without rules (%s)', (provider) => {
  const t: TestAppHandle = useTestApp(provider);

  it('lists every bad attribute (REST) and data value (RPC), and writes nothing', async () => {
    const before = await snapshotDatabase(t.db);
    const res = await t
      .http()
      .post('/api/rest/post')
      .set('Content-Type', JSON_API)
      .send(JSON.stringify({ data: { type: 'post', attributes: { title: 1, status: 'GONE', authorId: 'x' } } }))
      .expect(400);
    expect(res.body.errors.map((error: any) => [error.code, error.source.pointer, error.meta.issue])).toEqual([
      ['validation-failed', '/data/attributes/title', 'invalid-type'],
      ['validation-failed', '/data/attributes/status', 'invalid-enum'],
      ['validation-failed', '/data/attributes/authorId', 'invalid-type'],
    ]);
    const rpc = await callRpc(t, 'post', 'post/createMany', {
      data: [
        { title: 'ok', authorId: 1 },
        { title: 2, rating: 'x', authorId: 1 },
      ],
    });
    expect(rpc.status).toBe(400);
    expect(rpc.body.error.issues.map((issue: any) => [issue.path, issue.code])).toEqual([
      ['data[1].title', 'invalid-type'],
      ['data[1].rating', 'invalid-type'],
    ]);
    expect(await snapshotDatabase(t.db)).toBe(before);
  });
});
