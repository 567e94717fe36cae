import type { PoliciesFor, PolicyWhere } from '../lib/index.js';
import type { SamplePrismaClient } from './database/create-prisma-client.js';

/** What the demo authentication puts in `request.user` (see demo-auth.ts). */
export interface DemoUser {
  id: number;
  role: 'USER' | 'ADMIN';
}

export interface SampleContext {
  user?: DemoUser;
}

const isAdmin = ({ user }: SampleContext): boolean => user?.role === 'ADMIN';
const signedIn = ({ user }: SampleContext): boolean => user !== undefined;

/**
 * Rows owned by the caller. Anonymous callers own nothing: `false`, never `{ authorId: undefined }`,
 * which Prisma reads as "no condition" and would match every row.
 */
const owns =
  (field: string) =>
  ({ user }: SampleContext): PolicyWhere | false =>
    user ? { [field]: user.id } : false;

/** Published posts, and the caller's own drafts. */
const readablePost = ({ user }: SampleContext): PolicyWhere =>
  user ? { OR: [{ published: true }, { authorId: user.id }] } : { published: true };

/**
 * The sample blog's access policies: everyone reads published posts, authors also read, edit and
 * delete their own drafts and posts; a user's `passwordHash` is never readable and only an admin
 * may change roles.
 */
export const samplePolicies: PoliciesFor<SamplePrismaClient, SampleContext> = {
  User: {
    read: true,
    create: isAdmin,
    update: (ctx) => isAdmin(ctx) || owns('id')(ctx),
    delete: isAdmin,
    fields: {
      read: { passwordHash: false },
      write: { passwordHash: false, role: isAdmin },
    },
  },
  Profile: {
    read: true,
    create: owns('userId'),
    update: owns('userId'),
    delete: owns('userId'),
  },
  Post: {
    read: readablePost,
    create: owns('authorId'),
    update: owns('authorId'),
    delete: owns('authorId'),
  },
  Comment: {
    read: (ctx) => ({ post: readablePost(ctx) }),
    create: (ctx) => (ctx.user ? { authorId: ctx.user.id, post: readablePost(ctx) } : false),
    update: owns('authorId'),
    delete: owns('authorId'),
  },
  Tag: {
    read: true,
    create: signedIn,
    // Linking a tag to a post updates both sides of the many-to-many: only an admin attaches
    // existing tags; users tag their posts with tags they create in the same write.
    update: isAdmin,
    delete: isAdmin,
  },
  Like: {
    // A like reveals its post: likes of posts the caller cannot read are invisible too.
    read: (ctx) => ({ post: readablePost(ctx) }),
    create: owns('userId'),
    update: false,
    delete: owns('userId'),
  },
};
