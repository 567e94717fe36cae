import fc from 'fast-check';

import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiModuleOptions, CrudApiPolicies } from '../../lib/index.js';
import { seedPolicyBlog } from './policy-fixtures.js';
import { rpcQuery } from './rpc-client.js';
import { useTestApp } from './test-app.js';

/** The callers of the generated policy tests: two users of `seedPolicyBlog` and no one. */
export type Caller = 'alice' | 'bob' | 'anonymous';
export const CALLERS: Caller[] = ['alice', 'bob', 'anonymous'];

/** The sample policies, with everything allowed to the test's own writer (`x-writer`), and only to it. */
export const writerPolicies = Object.fromEntries(
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

/** The policy context of a request: the caller named by `x-user`, the writer by `x-writer: 1`. */
export const callerContext =
  (users: Partial<Record<Caller, DemoUser>>) => (request: { headers: Record<string, string> }) => ({
    user: users[request.headers['x-user'] as Caller],
    writer: request.headers['x-writer'] === '1',
  });

export const headersOf = (caller: Caller): Record<string, string> =>
  caller === 'anonymous' ? {} : { 'x-user': caller };

/** Reads whose rows the sample policies hide through relations (comments and likes of unreadable posts). */
export const RELATION_HIDDEN_READS = [
  '/api/rest/post?sort=id&fields[post]=title,published',
  '/api/rest/comment?sort=id&include=post&fields[post]=title',
  `/api/rpc/comment/findMany?${new URLSearchParams(rpcQuery({ orderBy: { id: 'asc' }, select: { body: true, post: { select: { title: true } } } }))}`,
  `/api/rpc/like/count?${new URLSearchParams(rpcQuery({}))}`,
  `/api/rpc/post/groupBy?${new URLSearchParams(rpcQuery({ by: ['published'], _count: { _all: true }, orderBy: { published: 'asc' } }))}`,
];

export interface PolicyWrite {
  kind: 'post' | 'publish' | 'comment' | 'deleteComment' | 'like';
  author: Caller;
  /** Whether a new post is published (a publication toggles). */
  published: boolean;
  pick: number;
}

/** Plans of writes that change what the callers may read: posts, publications, comments, likes. */
export const generatedWrites = fc.array(
  fc.record<PolicyWrite>({
    kind: fc.constantFrom('post', 'publish', 'comment', 'deleteComment', 'like'),
    author: fc.constantFrom<Caller>('alice', 'bob'),
    published: fc.boolean(),
    pick: fc.nat(),
  }),
  { minLength: 3, maxLength: 6 },
);

/** The rows a plan's writes pick from, grown by them. */
export interface WrittenRows {
  users: Partial<Record<Caller, DemoUser>>;
  /** Each post's id, and whether it is published. */
  posts: Map<number, boolean>;
  commentIds: string[];
  /** The likes that exist, as `userId:postId`. */
  likes: Set<string>;
}

/** Sends one generated write through RPC (`rpcWrite(path, body)` answers the written row). */
export async function applyWrite(
  write: PolicyWrite,
  rows: WrittenRows,
  rpcWrite: (path: string, body?: unknown) => Promise<any>,
): Promise<void> {
  const { posts, commentIds, likes } = rows;
  const author = rows.users[write.author]!.id;
  const post = [...posts.keys()][write.pick % posts.size]!;
  if (write.kind === 'post') {
    const data = { title: `p${posts.size}`, published: write.published, authorId: author };
    posts.set((await rpcWrite('post/create', { data })).id, write.published);
  } else if (write.kind === 'publish') {
    // A publication toggles, so that every one changes what some callers read.
    posts.set(post, !posts.get(post));
    await rpcWrite('post/update', { where: { id: post }, data: { published: posts.get(post) } });
  } else if (write.kind === 'comment') {
    const data = { body: `c${commentIds.length}`, postId: post, authorId: author };
    commentIds.push((await rpcWrite('comment/create', { data })).id);
  } else if (write.kind === 'deleteComment' && commentIds.length > 0) {
    const [id] = commentIds.splice(write.pick % commentIds.length, 1);
    await rpcWrite(`comment/delete?${new URLSearchParams(rpcQuery({ where: { id } }))}`);
  } else if (write.kind === 'like') {
    // A like toggles: no policy lets a like be updated, so liking twice would be refused.
    const where = { userId_postId: { userId: author, postId: post } };
    if (likes.delete(`${author}:${post}`)) await rpcWrite(`like/delete?${new URLSearchParams(rpcQuery({ where }))}`);
    else {
      likes.add(`${author}:${post}`);
      await rpcWrite('like/create', { data: { userId: author, postId: post } });
    }
  }
}

/** Requests to a listening app at `base`, each over its own connection as another client's would be. */
export function policyHttp(base: () => string) {
  const request = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const contentType = path.startsWith('/api/rest') ? 'application/vnd.api+json' : 'application/json';
    const response = await fetch(`${base()}${path}`, {
      method,
      headers: { 'Content-Type': contentType, Accept: contentType, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  /** An RPC write of the test's writer, which must succeed: its row. */
  const rpcWrite = async (path: string, body?: unknown) => {
    const method = /\/(create|upsert)$/.test(path) ? 'POST' : path.includes('/delete?') ? 'DELETE' : 'PUT';
    const { status, text } = await request(method, `/api/rpc/${path}`, { 'x-writer': '1' }, body);
    expect({ path, status, text: status < 300 ? '' : text }).toEqual({ path, status: expect.any(Number), text: '' });
    return JSON.parse(text).data;
  };
  return { request, rpcWrite };
}

/**
 * The listening application of the enclosing `describe` block under the writer's sample policies
 * (`seedPolicyBlog`'s users as callers), with `options` on top: its handle, the rows to write
 * from, and requests to it.
 */
export function usePolicyApp(provider: DatabaseProvider, options: Partial<CrudApiModuleOptions>) {
  const users: Partial<Record<Caller, DemoUser>> = {};
  let base = '';
  const t = useTestApp(provider, {
    options: { policies: writerPolicies, context: callerContext(users), ...options },
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
  /** The rows a plan writes from: the seeded posts and likes, no comment yet. */
  const rows = async (): Promise<WrittenRows> => ({
    users,
    posts: new Map(
      (await t.db.prisma.post.findMany({ select: { id: true, published: true } })).map((post) => [
        post.id,
        post.published,
      ]),
    ),
    commentIds: [],
    likes: new Set((await t.db.prisma.like.findMany()).map(({ userId, postId }) => `${userId}:${postId}`)),
  });
  return { t, base: () => base, rows, ...policyHttp(() => base) };
}
