import type { DemoUser } from '../../fixtures/blog/policies.js';
import type { TestDatabase } from './test-database.js';

/**
 * The adversarial policy suites' world: an ADMIN, two USERs (Alice and Bob) and anonymous callers,
 * with rows each of them cannot read under the sample policies. Ids are fixed and distinctive so
 * that two answers can be compared with the id replaced (`sameAnswer`).
 */
export interface AdversarialWorld {
  admin: DemoUser;
  alice: DemoUser;
  bob: DemoUser;
  /** Post ids. `bobDraft` and `bobOldDraft` are readable by Bob only (not even by the admin). */
  posts: { alicePub: number; aliceDraft: number; bobPub: number; bobDraft: number; bobOldDraft: number };
  /** Comment ids. `onBobDraft` and `aliceOnBobOldDraft` sit on Bob's drafts: only Bob reads them. */
  comments: {
    aliceOnAlicePub: string;
    bobOnAlicePub: string;
    bobOnBobPub: string;
    onBobDraft: string;
    aliceOnBobOldDraft: string;
  };
  /** Tag ids: `news` links alicePub and bobPub, `secret` links Bob's draft only. */
  tags: { news: number; secret: number };
  /** Alice's profile id (Bob has none, so his `userId` is free). */
  aliceProfile: string;
  /** Ids that no row has. */
  missing: { post: number; comment: string; user: number };
}

/** Starts of the two users' password hashes: `hash-alice-…`, `hash-bob-…`. */
export const HASH_PREFIX = { alice: 'hash-alice-', bob: 'hash-bob-' } as const;

/** The world's fixed ids, known before seeding so that probe tables can name them. */
export const WORLD: AdversarialWorld = {
  admin: { id: 6101, role: 'ADMIN' },
  alice: { id: 6102, role: 'USER' },
  bob: { id: 6103, role: 'USER' },
  posts: { alicePub: 7101, aliceDraft: 7102, bobPub: 7103, bobDraft: 7104, bobOldDraft: 7105 },
  comments: {
    aliceOnAlicePub: 'cmt-alice-on-alicepub',
    bobOnAlicePub: 'cmt-bob-on-alicepub',
    bobOnBobPub: 'cmt-bob-on-bobpub',
    onBobDraft: 'cmt-bob-on-bobdraft',
    aliceOnBobOldDraft: 'cmt-alice-on-bobolddraft',
  },
  tags: { news: 8101, secret: 8102 },
  aliceProfile: 'prof-alice',
  missing: { post: 7999, comment: 'cmt-missing-000000000', user: 6999 },
};

/** Seeds WORLD into an empty database (rows created with their fixed ids). */
export async function seedAdversarialWorld(db: TestDatabase): Promise<AdversarialWorld> {
  const p = db.prisma;
  const { admin, alice, bob, posts, comments, tags } = WORLD;
  for (const [name, u] of [
    ['admin', admin],
    ['alice', alice],
    ['bob', bob],
  ] as const) {
    await p.user.create({
      data: { id: u.id, name, email: `${name}@x.test`, role: u.role, passwordHash: `hash-${name}-7f3a9c` },
    });
  }
  const post = (id: number, title: string, authorId: number, published: boolean) =>
    p.post.create({ data: { id, title, authorId, published } });
  await post(posts.alicePub, 'alicePub', alice.id, true);
  await post(posts.aliceDraft, 'aliceDraft', alice.id, false);
  await post(posts.bobPub, 'bobPub', bob.id, true);
  await post(posts.bobDraft, 'bobDraft', bob.id, false);
  await post(posts.bobOldDraft, 'bobOldDraft', bob.id, false);
  const comment = (id: string, body: string, postId: number, authorId: number) =>
    p.comment.create({ data: { id, body, postId, authorId } });
  await comment(comments.aliceOnAlicePub, 'alice on alicePub', posts.alicePub, alice.id);
  await comment(comments.bobOnAlicePub, 'bob on alicePub', posts.alicePub, bob.id);
  await comment(comments.bobOnBobPub, 'bob on bobPub', posts.bobPub, bob.id);
  await comment(comments.onBobDraft, 'secret comment', posts.bobDraft, bob.id);
  // Alice commented while the post was published; Bob has since unpublished it.
  await comment(comments.aliceOnBobOldDraft, 'alice on old draft', posts.bobOldDraft, alice.id);
  await p.like.create({ data: { userId: bob.id, postId: posts.bobDraft } });
  await p.like.create({ data: { userId: alice.id, postId: posts.alicePub } });
  await p.tag.create({
    data: { id: tags.news, name: 'news', posts: { connect: [{ id: posts.alicePub }, { id: posts.bobPub }] } },
  });
  await p.tag.create({ data: { id: tags.secret, name: 'secret', posts: { connect: [{ id: posts.bobDraft }] } } });
  await p.profile.create({ data: { id: WORLD.aliceProfile, userId: alice.id, bio: 'alice bio' } });
  // Bob follows Alice.
  await p.user.update({ where: { id: alice.id }, data: { followers: { connect: { id: bob.id } } } });
  return WORLD;
}

/** Empties the database and seeds the world again: for suites whose probes may write today. */
export async function resetAdversarialWorld(db: TestDatabase): Promise<AdversarialWorld> {
  const p = db.prisma;
  await p.like.deleteMany();
  await p.comment.deleteMany();
  await p.profile.deleteMany();
  await p.tag.deleteMany();
  await p.post.deleteMany();
  await p.user.deleteMany();
  return seedAdversarialWorld(db);
}

/**
 * Every row and link of the database, read without policies, in a stable order: compare two
 * snapshots to prove that a refused request changed nothing.
 */
export async function snapshot(db: TestDatabase): Promise<string> {
  const p = db.prisma;
  const state = {
    users: await p.user.findMany({
      orderBy: { id: 'asc' },
      include: { followers: { select: { id: true }, orderBy: { id: 'asc' } } },
    }),
    profiles: await p.profile.findMany({ orderBy: { id: 'asc' } }),
    posts: await p.post.findMany({
      orderBy: { id: 'asc' },
      include: { tags: { select: { id: true }, orderBy: { id: 'asc' } } },
    }),
    comments: await p.comment.findMany({ orderBy: { id: 'asc' } }),
    tags: await p.tag.findMany({ orderBy: { id: 'asc' } }),
    likes: await p.like.findMany({ orderBy: [{ userId: 'asc' }, { postId: 'asc' }] }),
  };
  return JSON.stringify(state, (_key, value) =>
    typeof value === 'bigint'
      ? `${value}n`
      : value instanceof Uint8Array
        ? Buffer.from(value).toString('base64')
        : value,
  );
}

/** The keys that reach an object's prototype when copied with `out[key] = value`. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/**
 * Parses JSON the way body parsers do, so `"__proto__"` becomes an own key. Write probes as JSON
 * text with a `$KEY` placeholder for the prototype key.
 */
export function parseWithKey(text: string, key: string): any {
  return JSON.parse(text.replaceAll('$KEY', key));
}

/**
 * A reply reduced to what a client sees, with the given ids (of the probed rows) and field names
 * replaced by placeholders, so two probes that differ only by such a value can be compared whole.
 */
export function normalizeAnswer(status: number, body: unknown, replace: readonly (string | number)[] = []): string {
  let text = JSON.stringify({ status, body });
  for (const value of replace) text = text.split(String(value)).join('<X>');
  return text;
}

/** Whether a status is a refusal the client caused (never a success, never a server error). */
export const isClientError = (status: number): boolean => status >= 400 && status < 500;

/**
 * Runs a probe between two snapshots. When it changed the database (a bypass), the world is seeded
 * again before the caller asserts, so that one failing probe does not spoil the next ones.
 */
export async function probeState<T>(
  db: TestDatabase,
  act: () => Promise<T>,
): Promise<{ result: T; before: string; after: string }> {
  const before = await snapshot(db);
  const result = await act();
  const after = await snapshot(db);
  if (after !== before) await resetAdversarialWorld(db);
  return { result, before, after };
}
