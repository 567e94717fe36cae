/* eslint-disable @typescript-eslint/no-unused-vars -- each declaration is a type assertion */
// Type expectations of the RPC client, checked by `tsc` (npm run typecheck), never run: the client's
// arguments and results are the generated Prisma client's own, for the sample schema.
import type { Prisma, PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import {
  type RowVersion,
  type RpcAsOfReads,
  type RpcClient,
  type RpcHistoryOperationName,
  type RpcHistoryOperations,
  withDeleted,
} from '../../lib/client/index.js';
import { expectTypeEqual } from './type-equality.js';

declare const prisma: PrismaClient;
declare const client: RpcClient<PrismaClient>;

type Result<P> = Awaited<P>;

export async function readsMatchPrisma() {
  const included = client.post.findMany({ include: { author: true, tags: true } });
  expectTypeEqual<
    Result<typeof included>,
    Result<ReturnType<typeof prisma.post.findMany<{ include: { author: true; tags: true } }>>>
  >();
  const rows = await included;
  expectTypeEqual<(typeof rows)[number]['author']['email'], string>();

  const selected = await client.post.findFirst({
    select: { id: true, price: true, author: { select: { name: true } } },
  });
  expectTypeEqual<typeof selected, { id: number; price: Prisma.Decimal; author: { name: string } } | null>();

  const omitted = await client.user.findUniqueOrThrow({ where: { id: 1 }, omit: { passwordHash: true } });
  expectTypeEqual<keyof typeof omitted, 'id' | 'email' | 'name' | 'role' | 'createdAt'>();

  const counted = await client.post.count({ select: { _all: true, content: true } });
  expectTypeEqual<typeof counted, { _all: number; content: number }>();
  expectTypeEqual<Result<ReturnType<typeof client.post.count>>, number>();

  const aggregated = await client.post.aggregate({ _sum: { views: true }, _max: { createdAt: true } });
  expectTypeEqual<
    typeof aggregated,
    Result<ReturnType<typeof prisma.post.aggregate<{ _sum: { views: true }; _max: { createdAt: true } }>>>
  >();
  expectTypeEqual<typeof aggregated._sum.views, bigint | null>();

  const grouped = await client.post.groupBy({ by: ['authorId'], _count: { _all: true } });
  expectTypeEqual<(typeof grouped)[number]['authorId'], number>();
  expectTypeEqual<(typeof grouped)[number]['_count'], { _all: number }>();

  // The fluent API: a relation method on a single-record call.
  const author = await client.post.findUnique({ where: { id: 1 } }).author({ select: { email: true } });
  expectTypeEqual<typeof author, { email: string } | null>();
}

export async function writesMatchPrisma() {
  const created = await client.post.create({ data: { title: 't', authorId: 1 }, select: { id: true, views: true } });
  expectTypeEqual<typeof created, { id: number; views: bigint }>();

  const returned = await client.tag.createManyAndReturn({ data: [{ name: 'a' }], select: { name: true } });
  expectTypeEqual<typeof returned, { name: string }[]>();

  expectTypeEqual<Result<ReturnType<typeof client.post.updateMany>>, Prisma.BatchPayload>();
  expectTypeEqual<Result<ReturnType<typeof client.post.deleteMany>>, Prisma.BatchPayload>();

  const upserted = await client.profile.upsert({
    where: { userId: 1 },
    create: { userId: 1 },
    update: {},
    select: { avatar: true },
  });
  expectTypeEqual<typeof upserted, { avatar: Uint8Array<ArrayBuffer> | null }>();

  const [post, count] = await client.$transaction([
    client.post.create({ data: { title: 't', authorId: 1 } }),
    client.post.count(),
  ]);
  expectTypeEqual<
    typeof post,
    Result<ReturnType<typeof prisma.post.create<{ data: { title: string; authorId: number } }>>>
  >();
  expectTypeEqual<typeof count, number>();
}

export async function softDeleteOperationsAreTypedAsDelete() {
  const restored = await client.post.restore({ where: { id: 1 }, select: { id: true, deletedAt: true } });
  expectTypeEqual<typeof restored, { id: number; deletedAt: Date | null }>();
  const removed = await client.tag.hardDelete({ where: { name: 'a' }, include: { posts: true } });
  expectTypeEqual<
    typeof removed,
    Result<ReturnType<typeof prisma.tag.delete<{ where: { name: string }; include: { posts: true } }>>>
  >();
  expectTypeEqual<Parameters<typeof client.comment.restore>, Parameters<typeof prisma.comment.delete>>();
  expectTypeEqual<Parameters<typeof client.comment.hardDelete>, Parameters<typeof prisma.comment.delete>>();
  // Like delete, a relation method on the restored row.
  const author = await client.post.restore({ where: { id: 1 } }).author({ select: { name: true } });
  expectTypeEqual<typeof author, { name: string }>();
  // On every model: the types cannot tell which ones the application soft-deletes.
  void client.user.restore({ where: { id: 1 } });

  // withDeleted keeps the call's own type, fluent calls included.
  const all = await withDeleted(client.post.findMany({ select: { title: true } }));
  expectTypeEqual<typeof all, { title: string }[]>();
  const count = await withDeleted(client.comment.count());
  expectTypeEqual<typeof count, number>();
  const tags = await withDeleted(client.post.findUnique({ where: { id: 1 } }).tags());
  expectTypeEqual<typeof tags, Result<ReturnType<typeof prisma.tag.findMany>> | null>();
  const purged = await withDeleted(client.post.hardDelete({ where: { id: 1 }, select: { id: true } }));
  expectTypeEqual<typeof purged, { id: number }>();

  // @ts-expect-error restore takes a unique where
  void client.post.restore({ where: { title: 'x' } });
  // @ts-expect-error nor data
  void client.post.hardDelete({ where: { id: 1 }, data: {} });
}

/** A post as a read without selection answers it. */
type Post = Result<ReturnType<typeof prisma.post.findUniqueOrThrow>>;

export async function historyIsTypedByTheModel() {
  const versions = await client.post.history({ where: { id: 1 }, since: new Date(), until: '2024-01-01T00:00:00Z' });
  expectTypeEqual<typeof versions, RowVersion<Post>[]>();
  expectTypeEqual<(typeof versions)[number]['at'], Date>();
  expectTypeEqual<NonNullable<(typeof versions)[number]['data']>['views'], bigint>();
  void client.tag.history({ where: { name: 'a' }, actor: 'u1', order: 'asc', skip: 1, take: 2 });

  // restoreVersion: update's where and selection, a version in place of data, update's result.
  const restored = await client.post.restoreVersion({
    where: { id: 1 },
    version: 3,
    select: { id: true, title: true },
  });
  expectTypeEqual<typeof restored, { id: number; title: string }>();
  const whole = await client.post.restoreVersion({ where: { id: 1 }, version: 3, include: { author: true } });
  expectTypeEqual<
    typeof whole,
    Result<
      ReturnType<
        typeof prisma.post.update<{ where: { id: number }; data: { title: string }; include: { author: true } }>
      >
    >
  >();

  // Exactly the operations of the table's models with history, and the reads that take asOf.
  expectTypeEqual<keyof RpcHistoryOperations<PrismaClient['post']>, RpcHistoryOperationName>();
  expectTypeEqual<
    keyof RpcAsOfReads<PrismaClient['post']>,
    'findMany' | 'findUnique' | 'findUniqueOrThrow' | 'findFirst' | 'findFirstOrThrow' | 'count'
  >();

  // @ts-expect-error history takes a unique where
  void client.post.history({ where: { title: 'x' } });
  // @ts-expect-error restoreVersion takes no data
  void client.post.restoreVersion({ where: { id: 1 }, version: 3, data: { title: 't' } });
  // @ts-expect-error nor goes without a version
  void client.post.restoreVersion({ where: { id: 1 } });
}

export async function readsTakeAsOf() {
  const at = new Date();
  const then = await client.post.findMany({ asOf: at, where: { published: true }, select: { id: true, views: true } });
  expectTypeEqual<typeof then, { id: number; views: bigint }[]>();
  const one = await client.post.findUnique({ where: { id: 1 }, asOf: '2024-01-01T00:00:00Z' });
  expectTypeEqual<typeof one, Result<ReturnType<typeof prisma.post.findUnique>>>();
  const first = await client.post.findFirstOrThrow({ asOf: at, omit: { content: true } });
  expectTypeEqual<typeof first, Result<ReturnType<typeof prisma.post.findFirstOrThrow<{ omit: { content: true } }>>>>();
  const past = await client.post.findUniqueOrThrow({ where: { id: 1 }, asOf: at });
  expectTypeEqual<typeof past, Post>();
  expectTypeEqual<typeof first.views, bigint>();
  const counted = await client.post.count({ asOf: at, select: { _all: true } });
  expectTypeEqual<typeof counted, { _all: number }>();
  const maybe = await client.post.findFirst({ asOf: at });
  expectTypeEqual<typeof maybe, Post | null>();

  // Without asOf, Prisma's own signature: its inference and relation methods.
  const author = await client.post.findUnique({ where: { id: 1 } }).author({ select: { name: true } });
  expectTypeEqual<typeof author, { name: string } | null>();

  // @ts-expect-error a read as of a past time has no related rows
  void client.post.findMany({ asOf: at, include: { author: true } });
  // @ts-expect-error nor a cursor
  void client.post.findMany({ asOf: at, cursor: { id: 1 } });
  // @ts-expect-error asOf is a time
  void client.post.count({ asOf: 1 });
  // @ts-expect-error and the reads' other arguments are still checked
  void client.post.findMany({ asOf: at, where: { titel: 'x' } });
  // @ts-expect-error other reads take no asOf
  void client.post.aggregate({ asOf: at, _count: true });
}

export function parametersMatchPrisma() {
  expectTypeEqual<Parameters<typeof client.post.findMany>, Parameters<typeof prisma.post.findMany>>();
  expectTypeEqual<Parameters<typeof client.comment.update>, Parameters<typeof prisma.comment.update>>();
  expectTypeEqual<Parameters<typeof client.like.groupBy>, Parameters<typeof prisma.like.groupBy>>();
  expectTypeEqual<keyof typeof client, keyof RpcClient<PrismaClient>>();
}

export function refusesWhatPrismaRefuses() {
  // @ts-expect-error an unknown field in select
  void client.post.findMany({ select: { nope: true } });
  // @ts-expect-error an unknown field in where
  void client.post.findMany({ where: { titel: 'x' } });
  // @ts-expect-error a value of the wrong type
  void client.post.findFirst({ where: { views: 'many' } });
  // @ts-expect-error include of a relation the model does not have
  void client.tag.findMany({ include: { author: true } });
  // @ts-expect-error create without a required field
  void client.post.create({ data: { title: 't' } });
  // @ts-expect-error a model the schema does not have
  void client.nope;
  // @ts-expect-error raw queries are not operations of the interface
  void client.$queryRaw;
  // @ts-expect-error nor are the delegate's other members
  void client.post.fields;
  // @ts-expect-error an unknown aggregate field
  void client.post.aggregate({ _sum: { title: true } });
}
