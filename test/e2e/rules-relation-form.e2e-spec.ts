/**
 * Writes in Prisma's relation form where the server sets foreign keys (fast-check, seeded; FUZZ_RUNS
 * for a longer run, FUZZ_SEED to replay). The server sets `authorId` of posts and comments and
 * `userId` of likes from the context; each data object of a generated write names its other related
 * rows either by column (`postId`) or by relation (`post: { connect: { id } }`). The write with
 * every object in the column form is the reference: any mix of forms must answer and store the same,
 * on RPC (create, upsert, update with nested create, connectOrCreate and upsert, sequential
 * transactions) and on REST (attributes or relationships; single and atomic requests).
 */
import fc from 'fast-check';

import { type CrudApiPolicies, type CrudApiRules, withPolicies } from '../../lib/index.js';
import { snapshotDatabase } from '../support/db-snapshot.js';
import { callRpc } from '../support/rpc-client.js';
import { type TestAppHandle, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';
import { callTransaction, transactionBody } from '../support/transaction-client.js';

const SEED = Number(process.env.FUZZ_SEED ?? 4417);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

interface Context {
  user: { id: number };
}
/** The caller, as the context names it (set once the database is seeded). */
const caller: Context['user'] = { id: 0 };
const rules: CrudApiRules = {
  Post: { fields: { authorId: { serverSet: ({ user }) => user.id } } },
  Comment: { fields: { authorId: { serverSet: ({ user }) => user.id } } },
  Like: { fields: { userId: { serverSet: ({ user }) => user.id } } },
};

interface World {
  post: number;
  comment: string;
}

async function seed(t: TestAppHandle): Promise<World> {
  const user = await t.db.prisma.user.create({ data: { email: 'caller@x.test', name: 'Caller' } });
  caller.id = user.id;
  const post = await t.db.prisma.post.create({ data: { title: 'seed', authorId: user.id } });
  const comment = await t.db.prisma.comment.create({ data: { body: 'seed', postId: post.id, authorId: user.id } });
  return { post: post.id, comment: comment.id };
}

/** `post: { connect: { id } }` in the relation form, `postId` in the column form. */
const linked = (relational: boolean, relation: 'post' | 'parent', id: unknown) =>
  relational ? { [relation]: { connect: { id } } } : { [`${relation}Id`]: id };

/** One RPC call: `model/operation` and its arguments. */
interface Call {
  path: string;
  args: unknown;
}

/** A write of the tagged run; `forms[i]` says whether its i-th data object uses the relation form. */
interface Write {
  forms: number;
  call: (world: World, tag: string, forms: boolean[]) => Call[];
}

const comment = (tag: string, index: number) => ({ id: `${tag}-${index}`, body: `${tag} body ${index}` });
const one = (path: string, args: unknown): Call[] => [{ path, args }];

const WRITES: Write[] = [
  {
    // A comment on a post, replying to another.
    forms: 1,
    call: (w, tag, [f]) =>
      one('comment/create', {
        data: { ...comment(tag, 0), ...linked(f!, 'post', w.post), ...linked(f!, 'parent', w.comment) },
      }),
  },
  {
    // A post with a nested reply (its post is the parent row).
    forms: 1,
    call: (w, tag, [f]) =>
      one('post/create', {
        data: { title: tag, comments: { create: [{ ...comment(tag, 0), ...linked(f!, 'parent', w.comment) }] } },
      }),
  },
  {
    // A comment with nested replies, each naming its post.
    forms: 2,
    call: (w, tag, [f, g]) =>
      one('comment/create', {
        data: {
          ...comment(tag, 0),
          ...linked(f!, 'post', w.post),
          replies: { create: [{ ...comment(tag, 1), ...linked(g!, 'post', w.post) }] },
        },
      }),
  },
  {
    // connectOrCreate of the parent: the relation form above it, either form inside.
    forms: 1,
    call: (w, tag, [f]) =>
      one('comment/create', {
        data: {
          ...comment(tag, 0),
          post: { connect: { id: w.post } },
          parent: {
            connectOrCreate: {
              where: { id: `${tag}-1` },
              create: { ...comment(tag, 1), ...linked(f!, 'post', w.post) },
            },
          },
        },
      }),
  },
  {
    // A like of a new post (the server sets the like's user), the post with a reply.
    forms: 1,
    call: (w, tag, [f]) =>
      one('like/create', {
        data: {
          post: {
            create: { title: tag, comments: { create: [{ ...comment(tag, 0), ...linked(f!, 'parent', w.comment) }] } },
          },
        },
      }),
  },
  {
    // upsert, create branch.
    forms: 1,
    call: (w, tag, [f]) =>
      one('comment/upsert', {
        where: { id: `${tag}-0` },
        create: { ...comment(tag, 0), ...linked(f!, 'post', w.post) },
        update: { body: 'updated' },
      }),
  },
  {
    // An update's nested upsert (create branch) and connectOrCreate.
    forms: 2,
    call: (w, tag, [f, g]) =>
      one('post/update', {
        where: { id: w.post },
        data: {
          comments: {
            upsert: [
              {
                where: { id: `${tag}-0` },
                create: { ...comment(tag, 0), ...linked(f!, 'parent', w.comment) },
                update: { body: 'updated' },
              },
            ],
            connectOrCreate: [
              { where: { id: `${tag}-1` }, create: { ...comment(tag, 1), ...linked(g!, 'parent', w.comment) } },
            ],
          },
        },
      }),
  },
  {
    // An update's nested create of replies.
    forms: 1,
    call: (w, tag, [f]) =>
      one('comment/update', {
        where: { id: w.comment },
        data: { replies: { create: [{ ...comment(tag, 0), ...linked(f!, 'post', w.post) }] } },
      }),
  },
  {
    // Both in one sequential transaction.
    forms: 2,
    call: (w, tag, [f, g]) => [
      { path: 'comment/create', args: { data: { ...comment(tag, 0), ...linked(f!, 'post', w.post) } } },
      {
        path: 'post/create',
        args: {
          data: { title: tag, comments: { create: [{ ...comment(tag, 1), ...linked(g!, 'parent', w.comment) }] } },
        },
      },
    ],
  },
];

type Json = Record<string, any>;

/** The rows a write added or changed, per model, from the snapshots before and after it. */
function changedRows(before: string, after: string): Record<string, Json[]> {
  const old = JSON.parse(before) as Record<string, Json[]>;
  const now = JSON.parse(after) as Record<string, Json[]>;
  return Object.fromEntries(
    Object.entries(now).map(([model, rows]) => {
      const kept = new Set(old[model]!.map((row) => JSON.stringify(row)));
      return [model, rows.filter((row) => !kept.has(JSON.stringify(row)))];
    }),
  );
}

const TIMES = new Set(['createdAt', 'updatedAt']);

/**
 * What two runs of a write must share: the tag of the run left out, the times of the writes, and the
 * ids the database gave (new posts, in creation order; `keys` names them, `ids` their placeholders).
 */
function comparable(value: unknown, tag: string, ids: Map<unknown, string>, keys: ReadonlySet<string>): unknown {
  const text = JSON.stringify(value, (key, item) => {
    if (TIMES.has(key)) return undefined;
    if (typeof item === 'bigint') return `${item}n`;
    return keys.has(key) && ids.has(item) ? ids.get(item) : item;
  });
  return text === undefined ? undefined : JSON.parse(text.replaceAll(tag, 'TAG'));
}

describe.each(testProviders())('relation-form writes with server-set keys, over RPC (%s)', (provider) => {
  const world = {} as World;
  const t = useTestApp(provider, {
    options: { rules, context: () => ({ user: caller }) },
    seed: async (app) => Object.assign(world, await seed(app)),
  });

  /**
   * Hand-written code: the policy client with the same rules, under policies that let the caller
   * read only its own posts and their comments (so every row a write names is checked), choose
   * comments' ids, and create and update freely (nested creates need unconditional rules).
   */
  const policies: CrudApiPolicies = {
    User: { read: true, update: true },
    Post: { read: ({ user }: Context) => ({ authorId: user.id }), create: true, update: true },
    Comment: {
      read: ({ user }: Context) => ({ post: { authorId: user.id } }),
      create: true,
      update: true,
      fields: { write: { id: true } },
    },
    Like: { read: true, create: true },
  };
  const engine = () =>
    withPolicies(t.db.prisma, {
      policies,
      rules,
      modelMeta: t.db.modelMeta,
      context: { user: caller },
    }) as any;

  async function overRpc(calls: Call[]): Promise<{ status: number; data: unknown }> {
    if (calls.length === 1)
      return callRpc(t, calls[0]!.path.endsWith('update') ? 'patch' : 'post', calls[0]!.path, calls[0]!.args);
    const operations = calls.map(({ path, args }) => {
      const [model, op] = path.split('/');
      return { model: model!, op: op!, args: args as Record<string, unknown> };
    });
    return callTransaction(t, transactionBody(operations, 'server'));
  }

  async function overEngine(calls: Call[]): Promise<{ status: number; data: unknown }> {
    const run = (client: any, { path, args }: Call) => {
      const [model, op] = path.split('/');
      return client[model!][op!](args);
    };
    try {
      const data =
        calls.length === 1
          ? await run(engine(), calls[0]!)
          : await engine().$transaction(async (tx: unknown) => {
              const results: unknown[] = [];
              for (const call of calls) results.push(await run(tx, call));
              return results;
            });
      return { status: 200, data };
    } catch (error) {
      return { status: (error as { status?: number }).status ?? 500, data: String(error) };
    }
  }

  let runs = 0;
  /** Runs a write and returns what must not depend on the form: its answer and the rows it wrote. */
  async function outcome(write: Write, forms: boolean[], via: 'rpc' | 'withPolicies' = 'rpc') {
    const tag = `run${++runs}`;
    const calls = write.call(world, tag, forms);
    const before = await snapshotDatabase(t.db);
    const answer = await (via === 'rpc' ? overRpc(calls) : overEngine(calls));
    const rows = changedRows(before, await snapshotDatabase(t.db));
    const postIds = new Map(rows.Post!.map((row, index) => [row.id, `post#${index}`] as const));
    const keys = new Set(['id', 'postId']);
    return {
      status: answer.status,
      answer: comparable(answer.data, tag, postIds, keys),
      rows: comparable(rows, tag, postIds, keys),
    };
  }

  it('answers and stores the same whichever form each data object uses', async () => {
    const cases = fc
      .nat({ max: WRITES.length - 1 })
      .chain((index) =>
        fc.tuple(
          fc.constant(index),
          fc.array(fc.boolean(), { minLength: WRITES[index]!.forms, maxLength: WRITES[index]!.forms }),
        ),
      );
    await fc.assert(
      fc.asyncProperty(
        cases,
        fc.constantFrom<'rpc' | 'withPolicies'>('rpc', 'withPolicies'),
        async ([index, forms], via) => {
          const write = WRITES[index]!;
          const reference = await outcome(
            write,
            forms.map(() => false),
            via,
          );
          expect(reference.status).toBeLessThan(300);
          expect(await outcome(write, forms, via)).toEqual(reference);
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('writes every generated shape in the relation form throughout', async () => {
    for (const write of WRITES) {
      const reference = await outcome(
        write,
        Array.from({ length: write.forms }, () => false),
      );
      expect(
        await outcome(
          write,
          Array.from({ length: write.forms }, () => true),
        ),
      ).toEqual(reference);
      // The server set the keys of every row the write created.
      const created = await t.db.prisma.comment.findMany({ where: { id: { startsWith: `run${runs}-` } } });
      expect(created.length).toBeGreaterThan(0);
      for (const row of created) expect(row.authorId).toBe(caller.id);
    }
  });

  it('lets an update change the row a server-set key names, never the key', async () => {
    const update = await callRpc(t, 'patch', 'post/update', {
      where: { id: world.post },
      data: { author: { update: { name: 'Renamed' } } },
    });
    expect(update.status).toBe(200);
    expect(await t.db.prisma.user.findUnique({ where: { id: caller.id } })).toMatchObject({ name: 'Renamed' });
    await engine().post.update({ where: { id: world.post }, data: { author: { update: { name: 'Again' } } } });
    expect(await t.db.prisma.user.findUnique({ where: { id: caller.id } })).toMatchObject({ name: 'Again' });
    const before = await snapshotDatabase(t.db);
    for (const author of [
      { connect: { id: caller.id } },
      { update: { name: 'x' }, connect: { id: caller.id } },
      { upsert: { create: { email: 'new@x.test', name: 'New' }, update: { name: 'y' } } },
      { create: { email: 'new@x.test', name: 'New' } },
    ]) {
      const args = { where: { id: world.post }, data: { author } };
      expect((await callRpc(t, 'patch', 'post/update', args)).status).toBe(400);
      await expect(engine().post.update(args)).rejects.toMatchObject({ status: 400 });
    }
    expect(await snapshotDatabase(t.db)).toBe(before);
  });
});

describe.each(testProviders())('relation-form writes with server-set keys, over REST (%s)', (provider) => {
  const world = {} as World;
  const t = useTestApp(provider, {
    options: { rules, context: () => ({ user: caller }) },
    seed: async (app) => Object.assign(world, await seed(app)),
  });

  /** A new comment's resource object: each of its relations as an attribute or a relationship. */
  function resource(tag: string, forms: boolean[]) {
    const attributes: Json = { body: `${tag} body` };
    const relationships: Json = {};
    const members = [
      ['post', 'post', world.post],
      ['parent', 'comment', world.comment],
    ] as const;
    members.forEach(([name, type, id], index) => {
      if (forms[index]) relationships[name] = { data: { type, id: String(id) } };
      else attributes[`${name}Id`] = id;
    });
    return { type: 'comment', attributes, ...(Object.keys(relationships).length ? { relationships } : {}) };
  }

  let runs = 0;
  async function outcome(atomic: boolean, forms: boolean[]) {
    const tag = `rest${++runs}`;
    const before = await snapshotDatabase(t.db);
    const data = resource(tag, forms);
    const res = atomic
      ? await t
          .http()
          .post('/api/rest/operations')
          .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
          .send(JSON.stringify({ 'atomic:operations': [{ op: 'add', data }] }))
      : await t.http().post('/api/rest/comment').set('Content-Type', JSON_API).send(JSON.stringify({ data }));
    const rows = changedRows(before, await snapshotDatabase(t.db));
    // The new comment's id is the database's: it stands for itself in both runs.
    const id = rows.Comment![0]?.id;
    const text = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll(id ?? tag, 'NEW'));
    return {
      status: res.status,
      answer: text(comparable(res.body, tag, new Map(), new Set())),
      rows: text(comparable(rows, tag, new Map(), new Set())),
    };
  }

  it('answers and stores the same for attributes and relationships, single and atomic', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.tuple(fc.boolean(), fc.boolean()), async (atomic, forms) => {
        const reference = await outcome(atomic, [false, false]);
        expect(reference.status).toBe(atomic ? 200 : 201);
        expect(await outcome(atomic, forms)).toEqual(reference);
      }),
      { seed: SEED, numRuns: Math.ceil(RUNS / 2) },
    );
  });
});
