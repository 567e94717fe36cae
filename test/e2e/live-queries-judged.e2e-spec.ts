import fc from 'fast-check';

import { LiveQueries } from '../../lib/changes/live-queries.js';
import { CrudApiError } from '../../lib/index.js';
import { type LiveStream, openLiveQuery } from '../support/event-stream-client.js';
import { eventually } from '../support/eventually.js';
import { policyHttp, writerPolicies } from '../support/policy-writes.js';
import { rpcQuery } from '../support/rpc-client.js';
import { softDeleteRules } from '../support/soft-delete-fixtures.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const SEED = 4401;
const RUNS = 4;

type Name = 'ada' | 'bob';
const NAMES: Name[] = ['ada', 'bob'];

/** Reads that admins and users answer differently: deleted rows (`withDeleted`), drafts, relation-based rules. */
const READS = [
  '/api/rest/post?withDeleted=true&sort=id&fields[post]=title,published,deletedAt',
  `/api/rpc/post/findMany?withDeleted=true&${new URLSearchParams(rpcQuery({ orderBy: { id: 'asc' }, select: { title: true, deletedAt: true } }))}`,
  '/api/rest/comment?withDeleted=true&sort=id&include=post&fields[post]=title',
  `/api/rpc/comment/count?withDeleted=true&${new URLSearchParams(rpcQuery({}))}`,
];

/** Steps of a generated test: a caller's role toggled (outside the module), or a write to posts. */
interface Step {
  kind: 'role' | 'post' | 'publish' | 'delete' | 'restore';
  who: Name;
  flag: boolean;
  pick: number;
}

const generatedSteps = fc.array(
  fc.record<Step>({
    kind: fc.constantFrom('role', 'role', 'post', 'publish', 'delete', 'restore'),
    who: fc.constantFrom<Name>('ada', 'bob'),
    flag: fc.boolean(),
    pick: fc.nat(),
  }),
  { minLength: 4, maxLength: 8 },
);

/**
 * Open live queries are judged by the caller's context as it is at each re-run, not as it was when
 * they opened: the application's `context` is asked again (here it reads the caller's token and
 * role from the database), so a demoted caller stops receiving what its GET no longer answers, a
 * revoked token ends the stream with the GET's error, and only callers whose contexts the policies
 * decide alike now share a re-run.
 */
describe.each(testProviders())("live queries judged by the caller's current context (%s)", (provider) => {
  /** Bearer tokens: each names a user, whose role the context reads at each call. */
  const tokens = new Map<string, number>();
  const ids = {} as Record<Name, number>;
  let contextCalls = 0;
  let base = '';
  const t = useTestApp(provider, {
    options: {
      policies: writerPolicies,
      rules: softDeleteRules,
      live: { debounce: 5, maxPerCaller: 100 },
      openapi: false,
      context: async (request: { headers: Record<string, string | undefined> }) => {
        contextCalls++;
        const token = request.headers.authorization;
        if (token === 'writer') return { writer: true };
        const id = tokens.get(token ?? '');
        const user =
          id === undefined
            ? null
            : await t.db.prisma.user.findUnique({ where: { id }, select: { id: true, role: true } });
        if (!user) throw new CrudApiError('unauthorized', 'The token is not valid.');
        // The token as a session of the user's, which no rule reads.
        return { user, session: token };
      },
    },
    seed: async ({ db }) => {
      for (const name of NAMES) {
        ids[name] = (await db.prisma.user.create({ data: { name, email: `${name}@x.test` } })).id;
        tokens.set(name, ids[name]);
      }
    },
  });
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });
  const { request } = policyHttp(() => base);
  const streams: LiveStream[] = [];
  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await eventually(() => expect(t.app.get(LiveQueries).size).toBe(0));
  });
  const live = async (path: string, token: string) => {
    const stream = await openLiveQuery(`${base}${path}`, { Authorization: token });
    expect(stream.status).toBe(200);
    streams.push(stream);
    return stream;
  };
  const get = async (path: string, token: string) => (await request('GET', path, { Authorization: token })).text;
  const setRole = (name: Name, admin: boolean) =>
    t.db.prisma.user.update({ where: { id: ids[name] }, data: { role: admin ? 'ADMIN' : 'USER' } });

  /**
   * A write of the test's writer through the module (live queries hear of it): its result. A
   * restore of a post that is not deleted answers 404 and changes nothing.
   */
  const write = async (path: string, method: string, body?: unknown) => {
    const answer = await request(method, `/api/rpc/${path}`, { Authorization: 'writer' }, body);
    const refused = answer.status >= 300 && !(path === 'post/restore' && answer.status === 404);
    expect({ path, error: refused ? answer.text : undefined }).toEqual({ path, error: undefined });
    return JSON.parse(answer.text).data;
  };
  /** A post of `who`'s with a comment on it. */
  let created = 0;
  const createPost = async (who: Name, published: boolean, title = `p${++created}`) =>
    (
      await write('post/create', 'POST', {
        data: {
          title,
          published,
          authorId: ids[who],
          comments: { create: { body: `on ${title}`, authorId: ids[who] } },
        },
      })
    ).id as number;
  const deletePost = (id: number) => write(`post/delete?${new URLSearchParams(rpcQuery({ where: { id } }))}`, 'DELETE');

  /** Waits until the stream's last event is the caller's GET now; answers that GET. */
  const converged = async (stream: LiveStream, path: string, token: string) => {
    const answer = await get(path, token);
    await eventually(() => expect(stream.events.at(-1)?.data).toBe(answer));
    return answer;
  };

  it('sends a demoted subscriber only what its GET answers now, deleted rows no more', async () => {
    await setRole('ada', true);
    const gone = await createPost('bob', true, 'gone');
    await deletePost(gone);
    const subscribed = await Promise.all(READS.map((path) => live(path, 'ada')));
    // As an admin, ada sees the deleted post and its comment.
    expect(subscribed[0]!.events[0]!.data).toContain('"gone"');
    expect(subscribed[1]!.events[0]!.data).toContain('"gone"');
    await setRole('ada', false);
    await createPost('bob', true, 'after');
    for (const [index, path] of READS.entries()) {
      const now = await converged(subscribed[index]!, path, 'ada');
      expect(now).not.toContain('"gone"');
      expect(subscribed[index]!.events.every((event) => event.event === undefined)).toBe(true);
    }
  });

  it("ends the stream of a caller no longer authenticated with its GET's error, in each interface's format", async () => {
    tokens.set('revoked', ids.bob);
    const [rest, rpc] = await Promise.all([live(READS[0]!, 'revoked'), live(READS[1]!, 'revoked')]);
    const still = await live(READS[0]!, 'bob');
    tokens.delete('revoked');
    await createPost('bob', true);
    await eventually(() => expect(rest.ended && rpc.ended).toBe(true));
    for (const [stream, path] of [
      [rest, READS[0]!],
      [rpc, READS[1]!],
    ] as const) {
      const answer = await request('GET', path, { Authorization: 'revoked' });
      expect(answer.status).toBe(401);
      const error = stream.events.at(-1)!;
      expect(error.event).toBe('error');
      expect(JSON.parse(error.data)).toEqual(JSON.parse(answer.text));
    }
    // The other caller's stream goes on.
    await converged(still, READS[0]!, 'bob');
    expect(still.ended).toBe(false);
  });

  it('shares a re-run only between subscribers whose rules decide alike now', async () => {
    const queries = t.app.get(LiveQueries);
    const path = READS[0]!;
    tokens.set('first', ids.ada).set('second', ids.ada);
    const first = await live(path, 'first');
    const second = await live(path, 'second');
    /** The re-runs after `step`, whose changed rows concern `judged` of the two streams. */
    const rerunsAfter = async (step: () => Promise<unknown>, judged = 2) => {
      const before = queries.reruns;
      const calls = contextCalls;
      await step();
      await converged(first, path, 'first');
      await converged(second, path, 'second');
      // The context is asked once per stream the change re-runs (and once per GET of `converged`).
      expect(contextCalls - calls).toBe(judged + 2 + 1);
      return queries.reruns - before;
    };
    await setRole('ada', true);
    // A published post, a draft of ada's: each concerns both streams, judged again at each.
    expect(await rerunsAfter(() => createPost('bob', true))).toBe(1);
    // Two sessions of ada's: their contexts differ, their rules' decisions do not (one re-run).
    // `second` now names bob: its decisions differ, its stream re-runs on its own.
    tokens.set('second', ids.bob);
    expect(await rerunsAfter(() => createPost('ada', false))).toBe(2);
    expect(first.events.at(-1)!.data).not.toBe(second.events.at(-1)!.data);
    // Alike again: a draft of bob's concerns only the stream that read as bob, which runs as ada
    // now and joins the other (its answer is the other's), then they are one.
    tokens.set('second', ids.ada);
    expect(await rerunsAfter(() => createPost('bob', false), 1)).toBe(1);
    expect(await rerunsAfter(() => createPost('ada', false))).toBe(1);
    await setRole('ada', false);
  });

  it('sends every subscriber, whatever roles change between writes, exactly its own answers', async () => {
    const plans = fc.sample(generatedSteps, { seed: SEED, numRuns: RUNS });
    const posts = (await t.db.prisma.post.findMany({ select: { id: true } })).map((post) => post.id);
    for (const plan of plans) {
      const admins = new Set<Name>();
      for (const name of NAMES) await setRole(name, false);
      // A deleted post: what admins read and users do not.
      posts.push(await createPost('bob', true));
      await deletePost(posts.at(-1)!);
      const subscriptions: { name: Name; path: string; stream: LiveStream; answers: Set<string> }[] = [];
      for (const name of NAMES)
        for (const path of READS)
          subscriptions.push({ name, path, stream: await live(path, name), answers: new Set() });
      const converge = async () => {
        for (const { stream, path, name, answers } of subscriptions) answers.add(await converged(stream, path, name));
      };
      await converge();
      for (const step of plan) {
        const post = posts[step.pick % posts.length]!;
        if (step.kind === 'role') {
          // Every role step changes the caller's role: it toggles.
          if (admins.has(step.who)) admins.delete(step.who);
          else admins.add(step.who);
          await setRole(step.who, admins.has(step.who));
          // Changed outside the module: told as docs/live.md advises, the streams reading posts re-run.
          t.app.get(LiveQueries).committed(['Post', 'Comment']);
        } else if (step.kind === 'post') posts.push(await createPost(step.who, step.flag));
        else if (step.kind === 'publish')
          await write('post/updateMany', 'PUT', { where: { id: post }, data: { published: step.flag } });
        else if (step.kind === 'delete')
          await write(`post/deleteMany?${new URLSearchParams(rpcQuery({ where: { id: post } }))}`, 'DELETE');
        else await write('post/restore', 'POST', { where: { id: post } });
        await converge();
      }
      for (const { stream, answers } of subscriptions) {
        for (const event of stream.events) {
          expect(event.event).toBeUndefined();
          expect(answers).toContain(event.data);
        }
        stream.close();
      }
    }
  });
});
