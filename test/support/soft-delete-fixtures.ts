import type TestAgent from 'supertest/lib/agent.js';

import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import type { CrudApiModuleOptions, CrudApiPolicies, CrudApiRules } from '../../lib/index.js';
import { callRpc, type RpcCallExtras, type RpcReply } from './rpc-client.js';
import { type TestAppHandle, useTestApp } from './test-app.js';
import type { TestDatabase } from './test-database.js';

/** Posts, comments (with their replies) and tags are soft-deleted; deleting a post deletes its comments. */
export const softDeleteRules: CrudApiRules = {
  Post: { softDelete: { field: 'deletedAt', cascade: ['comments'] } },
  Comment: { softDelete: { field: 'deletedAt', cascade: ['replies'] } },
  Tag: { softDelete: { field: 'deletedAt' } },
};

const isAdmin = ({ user }: { user?: DemoUser }) => user?.role === 'ADMIN';

/**
 * The sample policies, and on soft-deleted rows: authors (and admins) restore their posts, admins
 * read deleted posts, comments and tags, restore tags and remove posts for good.
 */
export const softDeletePolicies: CrudApiPolicies = {
  ...samplePolicies,
  Post: {
    ...samplePolicies.Post,
    restore: ({ user }: { user?: DemoUser }) => (isAdmin({ user }) ? true : user ? { authorId: user.id } : false),
    readDeleted: isAdmin,
    hardDelete: isAdmin,
  },
  Comment: { ...samplePolicies.Comment, readDeleted: isAdmin },
  Tag: { ...samplePolicies.Tag, restore: isAdmin, readDeleted: isAdmin },
};

export interface SoftDeleteUsers {
  alice: DemoUser;
  bob: DemoUser;
  carol: DemoUser;
  admin: DemoUser;
}

async function seedUsers(db: TestDatabase): Promise<SoftDeleteUsers> {
  const user = (name: string, role: 'USER' | 'ADMIN' = 'USER') =>
    db.prisma.user.create({ data: { name, email: `${name}@x.test`, role }, select: { id: true, role: true } });
  return {
    alice: await user('alice'),
    bob: await user('bob'),
    carol: await user('carol'),
    admin: await user('admin', 'ADMIN'),
  };
}

/** One caller's view of the application: its REST agent and its RPC calls. */
export interface SoftDeleteApp {
  t: TestAppHandle;
  users: SoftDeleteUsers;
  /** The REST (or any) agent, the requests it sends made as `user`. */
  as(user: DemoUser | undefined): TestAgent;
  rpc(
    user: DemoUser | undefined,
    method: Parameters<typeof callRpc>[1],
    path: string,
    args?: unknown,
    extras?: RpcCallExtras,
  ): Promise<RpcReply>;
}

/**
 * The application of the enclosing `describe` block with the soft-delete rules and policies, four
 * users (alice, bob, carol; admin), and whatever `seed` adds. Requests must be sent one at a time:
 * the caller is the one named by the last `as` or `rpc`.
 */
export function useSoftDeleteApp(
  provider: DatabaseProvider,
  {
    options = {},
    seed,
  }: {
    options?: Partial<CrudApiModuleOptions>;
    seed?: (t: TestAppHandle, users: SoftDeleteUsers) => Promise<unknown>;
  } = {},
): SoftDeleteApp {
  let caller: DemoUser | undefined;
  const users = {} as SoftDeleteUsers;
  const t = useTestApp(provider, {
    // The OpenAPI documents do not describe the soft-delete routes and parameters: no contract check.
    options: {
      policies: softDeletePolicies,
      rules: softDeleteRules,
      context: () => ({ user: caller }),
      ...options,
      openapi: false,
    },
    seed: async (app) => {
      Object.assign(users, await seedUsers(app.db));
      await seed?.(app, users);
    },
  });
  return {
    t,
    users,
    as: (user) => {
      caller = user;
      return t.http();
    },
    rpc: (user, method, path, args, extras) => {
      caller = user;
      return callRpc(t, method, path, args, undefined, extras);
    },
  };
}

/**
 * A published post of alice's with three comments: two of bob's, the first replied to by alice.
 * Titles and bodies start with `title`.
 */
export async function thread(db: TestDatabase, users: Pick<SoftDeleteUsers, 'alice' | 'bob'>, title: string) {
  const p = db.prisma;
  const { alice, bob } = users;
  const post = await p.post.create({ data: { title, published: true, authorId: alice.id } });
  const first = await p.comment.create({ data: { body: `${title} 1`, postId: post.id, authorId: bob.id } });
  const reply = await p.comment.create({
    data: { body: `${title} reply`, postId: post.id, parentId: first.id, authorId: alice.id },
  });
  const second = await p.comment.create({ data: { body: `${title} 2`, postId: post.id, authorId: bob.id } });
  return { post, comments: [first, reply, second] };
}

/**
 * Every resource a JSON:API answer names, as `type:id`: resource objects and identifiers, wherever
 * they stand (primary data, included resources, relationship linkage, atomic results).
 */
export function resourceKeys(json: unknown, keys = new Set<string>()): Set<string> {
  if (Array.isArray(json)) for (const item of json) resourceKeys(item, keys);
  else if (typeof json === 'object' && json !== null) {
    const { type, id } = json as { type?: unknown; id?: unknown };
    if (typeof type === 'string' && (typeof id === 'string' || typeof id === 'number')) keys.add(`${type}:${id}`);
    for (const value of Object.values(json)) resourceKeys(value, keys);
  }
  return keys;
}
