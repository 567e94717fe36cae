/**
 * History and time travel under access policies: a caller never learns anything of a row it may not
 * read now, of a field it may not read, or of a history its history rule denies, whatever the read's
 * shape (history, findMany/findFirst/findUnique/count asOf, over the policy client and over RPC).
 * Generated (seeded) callers and reads are compared with a reference computed from the rows kept at
 * each time; examples pin the refusals.
 */
import { plainRow } from '../../lib/history/stored-row.js';
import { type CrudApiPolicies, type CrudApiRules, withPolicies } from '../../lib/index.js';
import { seededRandom } from '../support/seeded-random.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 90210);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type Row = Record<string, any>;
interface Caller {
  user?: { id: number; role: 'USER' | 'ADMIN' };
}

const isAdmin = ({ user }: Caller) => user?.role === 'ADMIN';
/** Published posts and the caller's own. */
const readable = ({ user }: Caller) =>
  user?.role === 'ADMIN' ? true : user ? { OR: [{ published: true }, { authorId: user.id }] } : { published: true };
const policies: CrudApiPolicies = {
  User: { read: true },
  Post: {
    read: readable,
    create: true,
    update: true,
    delete: true,
    // Only an admin or the author reads a post's history.
    history: ({ user }: Caller) => (user ? (user.role === 'ADMIN' ? true : { authorId: user.id }) : false),
    fields: { read: { rating: isAdmin } },
  },
};
// `metadata` is write-only: no history keeps it.
const rules: CrudApiRules = { Post: { history: true, fields: { metadata: 'writeOnly' } } };
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(testProviders())('history and time travel under access policies (%s)', (provider) => {
  const users: Caller['user'][] = [];
  const t = useTestApp(provider, {
    options: {
      history: { model: 'HistoryEntry' },
      rules,
      policies,
      // The caller a request names in `x-test-user` (JSON), anonymous without.
      context: (request: { headers: Record<string, string | undefined> }) => {
        const user = request.headers['x-test-user'];
        return user ? { user: JSON.parse(user) } : {};
      },
    },
    seed: async ({ db }) => {
      for (const [email, role] of [
        ['alice@x.test', 'USER'],
        ['bob@x.test', 'USER'],
        ['root@x.test', 'ADMIN'],
      ] as const) {
        const user = await db.prisma.user.create({ data: { email, name: email, role } });
        users.push({ id: user.id, role });
      }
    },
  });
  const clientOf = (caller: Caller) => {
    const { modelMeta } = t.db;
    const history = { model: modelMeta.models.HistoryEntry! };
    return withPolicies(t.db.prisma, { policies, rules, modelMeta, history, context: caller }) as any;
  };
  const admin = () => clientOf({ user: users[2] });

  /** What `caller` may see of the rows kept at a time: readable then and, for rows that still exist, now. */
  const reference = (caller: Caller, then: Row[], now: Row[]) => {
    const mayRead = (row: Row) =>
      isAdmin(caller) || row.published || (caller.user !== undefined && row.authorId === caller.user.id);
    const current = new Map(now.map((row) => [row.id, row]));
    return then
      .filter((row) => mayRead(row) && (!current.has(row.id) || mayRead(current.get(row.id)!)))
      .map((row) => {
        const { metadata: _writeOnly, ...rest } = row;
        if (!isAdmin(caller)) delete rest.rating;
        return plainRow(rest);
      });
  };

  it('answers every caller only what it may read, asOf any kept time and in every history', async () => {
    const rng = seededRandom(SEED);
    const times: { at: Date; rows: Row[] }[] = [];
    const keep = async () => {
      const at = new Date();
      await sleep(5);
      times.push({ at, rows: await t.db.prisma.post.findMany({ orderBy: { id: 'asc' } }) });
    };
    await keep();
    for (let step = 0; step < RUNS; step++) {
      const writer = admin();
      const ids = (await t.db.prisma.post.findMany({ select: { id: true } })).map((row) => row.id);
      const choice = ids.length === 0 ? 0 : rng.int(4);
      if (choice === 0) {
        const author = rng.pick(users.slice(0, 2))!;
        await writer.post.create({
          data: {
            title: `p${step}`,
            authorId: author.id,
            published: rng.next() < 0.5,
            rating: rng.int(5),
            metadata: { step },
          },
        });
      } else if (choice === 1 || choice === 2) {
        await writer.post.update({
          where: { id: rng.pick(ids) },
          data: { published: rng.next() < 0.5, rating: rng.int(5), metadata: { step } },
        });
      } else {
        await writer.post.delete({ where: { id: rng.pick(ids) } });
      }
      await keep();
    }

    const now = await t.db.prisma.post.findMany({ orderBy: { id: 'asc' } });
    const callers: Caller[] = [{}, { user: users[0] }, { user: users[1] }, { user: users[2] }];
    for (const caller of callers) {
      const client = clientOf(caller);
      for (const { at, rows } of times) {
        const expected = reference(caller, rows, now);
        const all = (await client.post.findMany({ asOf: at, orderBy: { id: 'asc' } })).map(plainRow);
        expect(all).toEqual(expected);
        expect(await client.post.count({ asOf: at })).toBe(expected.length);
        for (const row of rows) {
          const one = await client.post.findUnique({ where: { id: row.id }, asOf: at });
          expect(one && plainRow(one)).toEqual(expected.find((seen) => seen.id === row.id) ?? null);
        }
      }
      for (const row of now) {
        const mayRead = isAdmin(caller) || row.published || row.authorId === caller.user?.id;
        const mayReadHistory = isAdmin(caller) || (caller.user !== undefined && row.authorId === caller.user.id);
        const versions = client.post.history({ where: { id: row.id } });
        if (!mayRead) await expect(versions).rejects.toMatchObject({ code: 'not-found' });
        else if (!mayReadHistory) await expect(versions).rejects.toMatchObject({ status: 403 });
        else {
          for (const version of await versions) {
            expect(version.data).not.toHaveProperty('metadata');
            expect(version.changed).not.toContain('metadata');
            if (!isAdmin(caller)) {
              expect(version.data ?? {}).not.toHaveProperty('rating');
              expect(version.changed).not.toContain('rating');
            }
          }
        }
      }
    }
    // No history entry keeps the write-only field.
    const kept = await (t.db.prisma as any).historyEntry.findMany();
    expect(kept.length).toBeGreaterThan(RUNS / 2);
    for (const entry of kept) {
      expect(entry.data ?? {}).not.toHaveProperty('metadata');
      expect(entry.before ?? {}).not.toHaveProperty('metadata');
    }
  }, 300_000);

  it('refuses over RPC what the caller may not read, and a filter on a hidden field', async () => {
    const [alice, bob] = users;
    const draft = await admin().post.create({ data: { title: 'bob draft', authorId: bob!.id, published: false } });
    const as = (user: Caller['user']) => ({ 'X-Test-User': JSON.stringify(user) });
    const anonymous = await t.http().get(`/api/rpc/post/history?q=${q({ where: { id: draft.id } })}`);
    expect(anonymous.status).toBe(404);
    const asOf = new Date().toISOString();
    const hidden = await t
      .http()
      .get(`/api/rpc/post/findMany?q=${q({ asOf, where: { rating: { gt: 1 } } })}`)
      .set(as(alice));
    expect(hidden.status).toBe(400);
    const listed = await t.http().get(`/api/rpc/post/findMany?q=${q({ asOf, where: { id: draft.id } })}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
    const own = await t
      .http()
      .get(`/api/rpc/post/findMany?q=${q({ asOf, where: { id: draft.id } })}`)
      .set(as(bob));
    expect(own.body.data.map((row: Row) => row.title)).toEqual(['bob draft']);
    expect(own.body.data[0]).not.toHaveProperty('rating');
    const denied = await t
      .http()
      .get(`/api/rpc/post/history?q=${q({ where: { id: draft.id } })}`)
      .set(as({ ...alice!, id: alice!.id }));
    expect(denied.status).toBe(404);
    const versions = await t
      .http()
      .get(`/api/rpc/post/history?q=${q({ where: { id: draft.id } })}`)
      .set(as(bob));
    expect(versions.status).toBe(200);
    expect(versions.body.data.map((version: Row) => version.operation)).toEqual(['create']);
  });
});
