import fc from 'fast-check';

import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiPolicies } from '../../lib/index.js';
import { type LiveStream, openLiveQuery } from '../support/event-stream-client.js';
import { eventually } from '../support/eventually.js';
import { seedPolicyBlog } from '../support/policy-fixtures.js';
import { rpcQuery } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const SEED = 3107;
const RUNS = 4;

type Caller = 'alice' | 'bob' | 'anonymous';
const CALLERS: Caller[] = ['alice', 'bob', 'anonymous'];

/** The sample policies, with everything allowed to the test's own writer (`x-writer`), and only to it. */
const policies = Object.fromEntries(
  Object.entries(samplePolicies).map(([model, rules]) => [
    model,
    Object.fromEntries(
      Object.entries(rules as Record<string, unknown>).map(([action, rule]) =>
        action === 'fields' || typeof rule !== 'function'
          ? [action, rule]
          : [action, (ctx: { writer?: boolean }) => ctx.writer === true || (rule as (ctx: unknown) => unknown)(ctx)],
      ),
    ),
  ]),
) as unknown as CrudApiPolicies;

/** Reads whose rows the sample policies hide through relations (comments and likes of unreadable posts). */
const QUERIES = [
  '/api/rest/post?sort=id&fields[post]=title,published',
  '/api/rest/comment?sort=id&include=post&fields[post]=title',
  `/api/rpc/comment/findMany?${new URLSearchParams(rpcQuery({ orderBy: { id: 'asc' }, select: { body: true, post: { select: { title: true } } } }))}`,
  `/api/rpc/like/count?${new URLSearchParams(rpcQuery({}))}`,
  `/api/rpc/post/groupBy?${new URLSearchParams(rpcQuery({ by: ['published'], _count: { _all: true }, orderBy: { published: 'asc' } }))}`,
];

const writes = fc.array(
  fc.record({
    kind: fc.constantFrom('post', 'publish', 'comment', 'deleteComment', 'like'),
    author: fc.constantFrom<Caller>('alice', 'bob'),
    published: fc.boolean(),
    pick: fc.nat(),
  }),
  { minLength: 3, maxLength: 6 },
);

/**
 * Policies by construction: subscribers under relation-based read rules get, after every commit,
 * exactly what a GET of theirs answers then, and never anything else (each event is one of the
 * answers their GETs gave between commits).
 */
describe.each(testProviders())('live queries under relation-based policies (%s)', (provider) => {
  const users: Partial<Record<Caller, DemoUser>> = {};
  let base: string;
  const t = useTestApp(provider, {
    options: {
      policies,
      live: { debounce: 5, maxPerCaller: 100 },
      context: (request: { headers: Record<string, string> }) => ({
        user: users[request.headers['x-user'] as Caller],
        writer: request.headers['x-writer'] === '1',
      }),
    },
    seed: async ({ db }) => {
      const seeded = await seedPolicyBlog(db);
      users.alice = seeded.alice;
      users.bob = seeded.bob;
    },
  });
  beforeAll(async () => {
    await t.app.listen(0, '127.0.0.1');
    base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  const request = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const contentType = path.startsWith('/api/rest') ? 'application/vnd.api+json' : 'application/json';
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': contentType, Accept: contentType, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, text: await response.text() };
  };
  const headersOf = (caller: Caller): Record<string, string> => (caller === 'anonymous' ? {} : { 'x-user': caller });
  const rpcWrite = async (path: string, body?: unknown) => {
    const method = /\/(create|upsert)$/.test(path) ? 'POST' : path.includes('/delete?') ? 'DELETE' : 'PUT';
    const { status, text } = await request(method, `/api/rpc/${path}`, { 'x-writer': '1' }, body);
    expect({ path, status, text: status < 300 ? '' : text }).toEqual({ path, status: expect.any(Number), text: '' });
    return JSON.parse(text).data;
  };

  it('sends every subscriber exactly its own answers, whatever is written', async () => {
    const postIds = (await t.db.prisma.post.findMany({ select: { id: true } })).map((post) => post.id);
    const commentIds: string[] = [];
    const plans = fc.sample(writes, { seed: SEED, numRuns: RUNS });
    for (const plan of plans) {
      const subscriptions: { caller: Caller; path: string; stream: LiveStream; answers: Set<string> }[] = [];
      for (const caller of CALLERS) {
        for (const path of QUERIES) {
          const stream = await openLiveQuery(`${base}${path}`, headersOf(caller));
          expect(stream.status).toBe(200);
          subscriptions.push({ caller, path, stream, answers: new Set() });
        }
      }
      const converge = async () => {
        for (const subscription of subscriptions) {
          const answer = await request('GET', subscription.path, headersOf(subscription.caller));
          expect(answer.status).toBe(200);
          subscription.answers.add(answer.text);
          await eventually(() => expect(subscription.stream.events.at(-1)?.data).toBe(answer.text));
        }
      };
      await converge();
      for (const write of plan) {
        const author = users[write.author]!.id;
        const post = postIds[write.pick % postIds.length]!;
        if (write.kind === 'post') {
          postIds.push(
            (
              await rpcWrite('post/create', {
                data: { title: `p${postIds.length}`, published: write.published, authorId: author },
              })
            ).id,
          );
        } else if (write.kind === 'publish') {
          await rpcWrite('post/update', { where: { id: post }, data: { published: write.published } });
        } else if (write.kind === 'comment') {
          commentIds.push(
            (
              await rpcWrite('comment/create', {
                data: { body: `c${commentIds.length}`, postId: post, authorId: author },
              })
            ).id,
          );
        } else if (write.kind === 'deleteComment' && commentIds.length > 0) {
          const [id] = commentIds.splice(write.pick % commentIds.length, 1);
          await rpcWrite(`comment/delete?${new URLSearchParams(rpcQuery({ where: { id } }))}`);
        } else if (write.kind === 'like') {
          await rpcWrite('like/upsert', {
            where: { userId_postId: { userId: author, postId: post } },
            create: { userId: author, postId: post },
            update: {},
          });
        }
        await converge();
      }
      for (const subscription of subscriptions) {
        for (const event of subscription.stream.events) {
          expect(event.event).toBeUndefined();
          expect(subscription.answers).toContain(event.data);
        }
        subscription.stream.close();
      }
    }
  });
});
