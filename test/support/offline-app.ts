import type { CrudApiModuleOptions, CrudApiPolicies } from '../../lib/index.js';
import type { TestDatabase } from './test-database.js';

/** The caller of a request: the user its `x-user-id` header names, anonymous without. */
export interface Caller {
  user?: { id: number };
}

/** The caller a request names in `x-user-id`. */
export function callerOf(request: { headers: Record<string, string | undefined> }): Caller {
  const id = request.headers['x-user-id'];
  return id ? { user: { id: Number(id) } } : {};
}

/**
 * The module as the offline client's tests run it: posts are written by their author only,
 * comments by anyone signed in; tags are soft-deleted, and anyone may remove a deleted one for good.
 */
export const OFFLINE_APP_OPTIONS: Partial<CrudApiModuleOptions> = {
  policies: {
    Post: {
      read: true,
      create: true,
      update: ({ user }: Caller) => (user ? { authorId: user.id } : false),
      delete: true,
    },
    Comment: { read: true, create: ({ user }: Caller) => user !== undefined, update: true, delete: true },
    User: { read: true },
    Tag: { read: true, create: true, delete: true, readDeleted: true, hardDelete: true },
  } satisfies CrudApiPolicies<Caller>,
  rules: { Tag: { softDelete: { field: 'deletedAt' } } },
  context: callerOf,
};

/** The two users of the offline tests: alice (the client's) and bob. */
export async function seedOfflineUsers(db: TestDatabase): Promise<{ alice: number; bob: number }> {
  const alice = (await db.prisma.user.create({ data: { email: 'alice@x.test', name: 'Alice' } })).id;
  const bob = (await db.prisma.user.create({ data: { email: 'bob@x.test', name: 'Bob' } })).id;
  return { alice, bob };
}
