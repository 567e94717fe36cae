import type { SampleDatabase, SamplePrismaClient } from '../../fixtures/blog/database/create-prisma-client.js';
import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';

/** The benchmark's data: sizes large enough for indexes, LIMIT and counts to matter. */
export interface DatasetSize {
  users: number;
  posts: number;
  commentsPerPost: number;
  tags: number;
}

export const DEFAULT_DATASET: DatasetSize = { users: 1_000, posts: 10_000, commentsPerPost: 5, tags: 50 };

const BATCH = 2_000;
const STATUSES = ['DRAFT', 'PUBLISHED', 'ARCHIVED'] as const;
const EPOCH = Date.UTC(2025, 0, 1);
const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';

/**
 * Fills an empty sample database deterministically: the same ids and values on every run and on
 * both databases (ids come from autoincrement in insertion order, so post N has id N).
 */
export async function seedDataset({ prisma, provider }: SampleDatabase, size: DatasetSize): Promise<void> {
  await inBatches(size.users, (from, to) => prisma.user.createMany({ data: range(from, to).map((i) => userRow(i)) }));
  await inBatches(size.tags, (from, to) =>
    prisma.tag.createMany({ data: range(from, to).map((i) => ({ name: `tag-${i}` })) }),
  );
  await addPosts(prisma, 0, size.posts, size.users);
  const comments = size.posts * size.commentsPerPost;
  await inBatches(comments, (from, to) =>
    prisma.comment.createMany({
      data: range(from, to).map((i) => ({
        body: `Comment ${i + 1}: ${LOREM.slice(0, 40 + (i % 60))}`,
        postId: Math.floor(i / size.commentsPerPost) + 1,
        authorId: i % 7 === 0 ? null : ((i * 13) % size.users) + 1,
        createdAt: new Date(EPOCH + i * 30_000),
      })),
    }),
  );
  if (size.tags > 0) await tagPosts(prisma, SQL_DIALECTS[provider], size.posts, size.tags);
}

/** Appends posts `from + 1 … to` (ids in insertion order), spread evenly over the users. */
export async function addPosts(prisma: SamplePrismaClient, from: number, to: number, users: number): Promise<void> {
  await inBatches(to - from, (start, end) =>
    prisma.post.createMany({ data: range(from + start, from + end).map((i) => postRow(i, users)) }),
  );
}

function userRow(i: number) {
  return {
    email: `user${i + 1}@bench.test`,
    name: `User ${i + 1}`,
    role: i % 50 === 0 ? ('ADMIN' as const) : ('USER' as const),
    createdAt: new Date(EPOCH + i * 3_600_000),
  };
}

function postRow(i: number, users: number) {
  const status = STATUSES[i % 3]!;
  return {
    title: `Post ${i + 1}`,
    content: LOREM.repeat(1 + (i % 3)),
    status,
    published: status === 'PUBLISHED',
    rating: ((i * 37) % 50) / 10,
    price: `${i % 100}.99`,
    views: BigInt(i * 13),
    metadata: i % 10 === 0 ? { featured: true, order: i } : undefined,
    publishedAt: status === 'PUBLISHED' ? new Date(EPOCH + i * 60_000) : null,
    createdAt: new Date(EPOCH + i * 60_000),
    authorId: (i % users) + 1,
  };
}

/** Two tags per post through Prisma's implicit join table, which `createMany` cannot reach. */
interface SqlDialect {
  placeholder(position: number): string;
  quote(identifier: string): string;
}

/** How each database writes a bound parameter and a quoted identifier in raw SQL. */
const SQL_DIALECTS: Record<DatabaseProvider, SqlDialect> = {
  sqlite: { placeholder: () => '?', quote: (name) => `"${name}"` },
  postgresql: { placeholder: (n) => `$${n}`, quote: (name) => `"${name}"` },
  mysql: { placeholder: () => '?', quote: (name) => `\`${name}\`` },
};

async function tagPosts(
  prisma: SamplePrismaClient,
  { placeholder, quote }: SqlDialect,
  posts: number,
  tags: number,
): Promise<void> {
  const pairs: [number, number][] = [];
  for (let post = 1; post <= posts; post++) {
    const first = (post % tags) + 1;
    const second = ((post * 7) % tags) + 1;
    pairs.push([post, first]);
    if (second !== first) pairs.push([post, second]);
  }
  await inBatches(pairs.length, async (from, to) => {
    const slice = pairs.slice(from, to);
    const values = slice.map((_, k) => `(${placeholder(2 * k + 1)}, ${placeholder(2 * k + 2)})`).join(', ');
    await prisma.$executeRawUnsafe(
      `INSERT INTO ${quote('_PostToTag')} (${quote('A')}, ${quote('B')}) VALUES ${values}`,
      ...slice.flat(),
    );
  });
}

async function inBatches(total: number, write: (from: number, to: number) => Promise<unknown>): Promise<void> {
  for (let from = 0; from < total; from += BATCH) await write(from, Math.min(total, from + BATCH));
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, k) => from + k);
}
