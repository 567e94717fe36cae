/**
 * Generated sequences of writes (seeded; FUZZ_SEED to replay, FUZZ_RUNS for a longer run) over every
 * write path of both interfaces and of hand-written code, some of them rolled back. After each write
 * the test keeps the time and the tables as they are then, and the answers of a few generated reads;
 * at the end, every read `asOf` each of those times must answer exactly what the database answered
 * then, and each row's history must hold, at each of those times, the row as it was. A rolled-back
 * write must leave the history as it was.
 */
import { plainRow } from '../../lib/history/stored-row.js';
import { CRUD_API_OPTIONS, type CrudApiRules, type ResolvedCrudApiOptions, withPolicies } from '../../lib/index.js';
import { seededRandom } from '../support/seeded-random.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 4711);
const STEPS = Number(process.env.FUZZ_RUNS ?? 40);

const rules: CrudApiRules = {
  Post: { history: true },
  Tag: { history: true, softDelete: { field: 'deletedAt' } },
};

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Row = Record<string, any>;

/** Rows as JSON carries them (Dates, Decimals, BigInts as text), in id order: what two reads compare by. */
const plain = (rows: Row[]) => rows.map((row) => plainRow(row));

interface Snapshot {
  at: Date;
  posts: Row[];
  liveTags: Row[];
  reads: { args: Row; rows: Row[]; count: number }[];
}

describe.each(testProviders())('history and time travel over generated writes (%s)', (provider) => {
  let authorId: number;
  const t = useTestApp(provider, {
    options: { history: { model: 'HistoryEntry' }, rules },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } })).id;
    },
  });
  const prisma = () => t.db.prisma as any;
  /** A hand-written endpoint's client: the module's policy wrapper with the same rules and history. */
  const handWritten = () => {
    const { history, modelMeta } = t.app.get<ResolvedCrudApiOptions>(CRUD_API_OPTIONS);
    return withPolicies(t.db.prisma, { rules, history, modelMeta, context: { user: { id: authorId } } }) as any;
  };
  const entries = async (): Promise<Row[]> => prisma().historyEntry.findMany({ orderBy: { id: 'asc' } });

  it('answers every read asOf each past time as the database did then, and keeps each row as it was', async () => {
    const rng = seededRandom(SEED);
    const postIds = async (): Promise<number[]> =>
      (await prisma().post.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((row: Row) => row.id);
    const title = () => `p${rng.int(1000)}`;
    const tagName = () => `t${rng.int(1_000_000)}`;
    const somePost = async () => {
      const ids = await postIds();
      return ids.length > 0 ? rng.pick(ids) : 999_999;
    };

    /** Each write: its name, and whether it commits (a failing one must leave no trace). */
    const writes: Record<string, () => Promise<boolean>> = {
      restCreate: async () => {
        const data = { type: 'post', attributes: { title: title() }, relationships: {} as Row };
        data.relationships.author = { data: { type: 'user', id: String(authorId) } };
        const res = await t.http().post('/api/rest/post').set('Content-Type', JSON_API).send({ data });
        return res.status === 201;
      },
      restPatch: async () => {
        const id = await somePost();
        const res = await t
          .http()
          .patch(`/api/rest/post/${id}`)
          .set('Content-Type', JSON_API)
          .send({ data: { type: 'post', id: String(id), attributes: { title: title(), rating: rng.int(5) } } });
        return res.status === 200;
      },
      restDelete: async () => (await t.http().delete(`/api/rest/post/${await somePost()}`)).status === 204,
      atomic: async () => {
        const fails = rng.next() < 0.5;
        const target = fails ? 999_999 : await somePost();
        const res = await t
          .http()
          .post('/api/rest/operations')
          .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
          .send(
            JSON.stringify({
              'atomic:operations': [
                {
                  op: 'add',
                  data: {
                    type: 'post',
                    attributes: { title: title() },
                    relationships: { author: { data: { type: 'user', id: String(authorId) } } },
                  },
                },
                { op: 'update', data: { type: 'post', id: String(target), attributes: { rating: rng.int(5) } } },
              ],
            }),
          );
        return res.status === 200;
      },
      rpcCreate: async () =>
        (
          await t
            .http()
            .post('/api/rpc/post/create')
            .send({ data: { title: title(), authorId } })
        ).status === 201,
      rpcUpdate: async () => {
        const where = { id: await somePost() };
        const res = await t
          .http()
          .patch('/api/rpc/post/update')
          .send({ where, data: { rating: rng.int(5), published: rng.next() < 0.5 } });
        return res.status === 200;
      },
      rpcUpsert: async () => {
        const where = { id: rng.next() < 0.5 ? await somePost() : 999_999 };
        const res = await t
          .http()
          .post('/api/rpc/post/upsert')
          .send({ where, create: { title: title(), authorId }, update: { title: title() } });
        return res.status === 200;
      },
      rpcCreateMany: async () => {
        const data = [
          { title: title(), authorId },
          { title: title(), authorId, rating: rng.int(5) },
        ];
        return (await t.http().post('/api/rpc/post/createMany').send({ data })).status === 201;
      },
      rpcUpdateMany: async () => {
        const where = { rating: { lt: rng.int(5) } };
        const res = await t
          .http()
          .patch('/api/rpc/post/updateMany')
          .send({ where, data: { rating: rng.int(5) } });
        return res.status === 200;
      },
      rpcDeleteMany: async () => {
        const where = { id: { in: [await somePost()] } };
        return (await t.http().delete(`/api/rpc/post/deleteMany?q=${q({ where })}`)).status === 200;
      },
      nested: async () => {
        const data = {
          posts: {
            create: { title: title() },
            updateMany: { where: { rating: { gte: 3 } }, data: { published: true } },
          },
        };
        return (
          (
            await t
              .http()
              .patch('/api/rpc/user/update')
              .send({ where: { id: authorId }, data })
          ).status === 200
        );
      },
      sequential: async () => {
        const fails = rng.next() < 0.5;
        const steps = [
          { model: 'Post', op: 'create', args: { data: { title: title(), authorId } } },
          {
            model: 'Post',
            op: 'update',
            args: { where: { id: fails ? 999_999 : await somePost() }, data: { rating: 4 } },
          },
        ];
        return (await t.http().post('/api/rpc/$transaction/sequential').send(steps)).status === 200;
      },
      failingCreate: async () =>
        (
          await t
            .http()
            .post('/api/rpc/post/create')
            .send({ data: { title: title(), authorId: 999_999 } })
        ).status === 201,
      handWritten: async () => {
        const client = handWritten();
        const id = await somePost();
        const fails = rng.next() < 0.5;
        try {
          await client.$transaction(async (tx: any) => {
            await tx.post.update({ where: { id }, data: { title: title() } });
            await tx.tag.create({ data: { name: tagName() } });
            if (fails) throw new Error('rolled back on purpose');
          });
          return true;
        } catch {
          return false;
        }
      },
      tagCreate: async () =>
        (
          await t
            .http()
            .post('/api/rpc/tag/create')
            .send({ data: { name: tagName() } })
        ).status === 201,
      tagSoftDelete: async () => {
        const tags: Row[] = await prisma().tag.findMany({ where: { deletedAt: null } });
        if (tags.length === 0) return false;
        return (await t.http().delete(`/api/rest/tag/${rng.pick(tags).id}`)).status === 204;
      },
      tagRestore: async () => {
        const tags: Row[] = await prisma().tag.findMany({ where: { deletedAt: { not: null } } });
        if (tags.length === 0) return false;
        const res = await t
          .http()
          .post('/api/rpc/tag/restore')
          .send({ where: { id: rng.pick(tags).id } });
        return res.status === 200;
      },
    };

    /** A generated read of posts: a filter the history can judge in memory, an order, a page. */
    const readArgs = (): Row => {
      const where = rng.pick<Row>([
        {},
        { rating: { gte: rng.int(5) } },
        { published: rng.next() < 0.5 },
        { OR: [{ rating: { lt: 2 } }, { published: true }] },
        { NOT: { rating: rng.int(5) } },
      ]);
      const orderBy = rng.pick<Row[]>([
        [{ id: 'asc' }],
        [{ rating: 'desc' }, { id: 'asc' }],
        [{ title: 'asc' }, { id: 'desc' }],
      ]);
      return { where, orderBy, skip: rng.int(10), take: 1 + rng.int(6) };
    };

    const snapshots: Snapshot[] = [];
    const take = async () => {
      const at = new Date();
      // Whatever commits next is recorded after `at` by the database's clock.
      await sleep(5);
      const posts = await prisma().post.findMany({ orderBy: { id: 'asc' } });
      const liveTags = await prisma().tag.findMany({ where: { deletedAt: null }, orderBy: { id: 'asc' } });
      const reads = [];
      for (let i = 0; i < 2; i++) {
        const args = readArgs();
        reads.push({
          args,
          rows: await prisma().post.findMany(args),
          count: await prisma().post.count({ where: args.where }),
        });
      }
      snapshots.push({ at, posts, liveTags, reads });
    };

    await take();
    const names = Object.keys(writes);
    let failed = 0;
    for (let step = 0; step < STEPS; step++) {
      const before = await entries();
      const tables = JSON.stringify(plain(await prisma().post.findMany({ orderBy: { id: 'asc' } })));
      const committed = await writes[rng.pick(names)]!();
      if (!committed) {
        failed++;
        // A write that did not commit changed neither the table nor the history.
        expect(plain(await entries())).toEqual(plain(before));
        expect(JSON.stringify(plain(await prisma().post.findMany({ orderBy: { id: 'asc' } })))).toBe(tables);
      }
      await take();
    }
    expect(failed).toBeGreaterThan(0);

    const client = handWritten();
    for (const snapshot of snapshots) {
      const asOf = snapshot.at;
      expect(plain(await client.post.findMany({ asOf, orderBy: { id: 'asc' } }))).toEqual(plain(snapshot.posts));
      expect(plain(await client.tag.findMany({ asOf, orderBy: { id: 'asc' } }))).toEqual(plain(snapshot.liveTags));
      for (const read of snapshot.reads) {
        expect(plain(await client.post.findMany({ ...read.args, asOf }))).toEqual(plain(read.rows));
        expect(await client.post.count({ where: read.args.where, asOf })).toBe(read.count);
        const http = await t.http().get(`/api/rpc/post/findMany?q=${q({ ...read.args, asOf: asOf.toISOString() })}`);
        expect(http.status).toBe(200);
        expect(http.body.data).toEqual(plain(read.rows));
      }
      for (const row of snapshot.posts) {
        const one = await client.post.findUnique({ where: { id: row.id }, asOf });
        expect(plainRow(one)).toEqual(plainRow(row));
      }
    }

    // Each row's history, read back, holds the row as each snapshot saw it.
    const history = await entries();
    const everyId = new Set(snapshots.flatMap((snapshot) => snapshot.posts.map((row) => row.id)));
    for (const id of everyId) {
      const versions = history.filter((entry) => entry.model === 'Post' && entry.rowKey === JSON.stringify({ id }));
      for (const snapshot of snapshots) {
        const latest = versions.filter((entry) => entry.at <= snapshot.at).at(-1);
        const row = snapshot.posts.find((post) => post.id === id);
        expect(latest?.data ?? undefined).toEqual(row && plainRow(row));
      }
    }
    // The history operation answers a live row's versions, newest first, as recorded.
    const live = await postIds();
    if (live.length > 0) {
      const id = live[0]!;
      const answered = await client.post.history({ where: { id } });
      const recorded = history.filter((entry) => entry.model === 'Post' && entry.rowKey === JSON.stringify({ id }));
      expect(answered.map((version: Row) => version.version)).toEqual(recorded.map((entry) => entry.id).reverse());
      expect(answered.map((version: Row) => version.data && plainRow(version.data))).toEqual(
        recorded.map((entry) => entry.data).reverse(),
      );
    }
  }, 300_000);
});
