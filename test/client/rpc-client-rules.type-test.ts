/* eslint-disable @typescript-eslint/no-unused-vars -- each declaration is a type assertion */
// Type expectations of the RPC client typed by the application's rules, checked by `tsc`
// (npm run typecheck), never run: write data follows the field modes and virtual fields, results
// leave out the write-only and internal columns.
import type { Prisma, PrismaClient, Role } from '../../fixtures/generated/sqlite/prisma/client.js';
import type { RpcClient } from '../../lib/client/index.js';
import type { CrudApiRules } from '../../lib/rules/rules.types.js';
import { expectTypeEqual } from './type-equality.js';

const rules = {
  User: {
    fields: { passwordHash: 'writeOnly', role: 'serverSet', createdAt: 'internal' },
    virtual: {
      password: { type: 'String', required: true },
      inviteCode: { type: 'Int' },
      birthday: { type: 'DateTime' },
      consent: { type: 'Boolean' },
      extra: { type: 'Json' },
    },
  },
  Post: { fields: { authorId: 'serverSet' } },
  Comment: { fields: { body: { serverSet: () => 'x' } } },
} satisfies CrudApiRules;

declare const prisma: PrismaClient;
declare const client: RpcClient<PrismaClient, typeof rules>;
declare const untyped: RpcClient<PrismaClient, CrudApiRules>;

type Result<P> = Awaited<P>;
type DataOf<F> = F extends (args: infer A) => unknown ? (A extends { data: infer D } ? D : never) : never;

export async function writesFollowTheRules() {
  const created = await client.user.create({
    data: { email: 'e', name: 'n', passwordHash: 'h', password: 'p', inviteCode: 1, birthday: new Date() },
    select: { id: true, role: true },
  });
  expectTypeEqual<typeof created, { id: number; role: Role }>();
  const whole = await client.user.create({ data: { email: 'e', name: 'n', password: 'p', birthday: '2020-01-01' } });
  expectTypeEqual<keyof typeof whole, ReadableUserColumn>();

  void client.user.update({ where: { id: 1 }, data: { password: 'p', consent: true, extra: { any: 1 } } });
  void client.user.update({ where: { id: 1 }, data: {} });
  void client.user.createMany({ data: [{ email: 'e', name: 'n', password: 'p' }] });
  void client.user.upsert({
    where: { id: 1 },
    create: { email: 'e', name: 'n', password: 'p' },
    update: { name: 'n' },
  });
  const count = await client.user.updateMany({ data: { name: 'n' } });
  expectTypeEqual<typeof count, Prisma.BatchPayload>();
  // A foreign key the server sets: neither it nor its relation, and neither is required.
  void client.post.create({ data: { title: 't', tags: { connect: [{ id: 1 }] } } });
  // A server-set column filled from the context is left out like any other.
  void client.comment.create({ data: { postId: 1 } });
}

/** The columns of a user the server sends: all but the write-only `passwordHash` and the internal `createdAt`. */
type ReadableUserColumn = 'id' | 'email' | 'name' | 'role';

export async function resultsLeaveOutWhatTheServerNeverSends() {
  const found = await client.user.findUniqueOrThrow({ where: { id: 1 } });
  expectTypeEqual<keyof typeof found, ReadableUserColumn>();
  const many = await client.user.findMany();
  expectTypeEqual<keyof (typeof many)[number], ReadableUserColumn>();
  const first = await client.user.findFirst();
  expectTypeEqual<keyof NonNullable<typeof first>, ReadableUserColumn>();
  const updated = await client.user.update({ where: { id: 1 }, data: { name: 'n' } });
  expectTypeEqual<keyof typeof updated, ReadableUserColumn>();
  const returned = await client.user.updateManyAndReturn({ data: { name: 'n' } });
  expectTypeEqual<keyof (typeof returned)[number], ReadableUserColumn>();
  const upserted = await client.user.upsert({
    where: { id: 1 },
    create: { email: 'e', name: 'n', password: 'p' },
    update: {},
  });
  expectTypeEqual<keyof typeof upserted, ReadableUserColumn>();
  for (const row of [
    await client.user.delete({ where: { id: 1 } }),
    await client.user.restore({ where: { id: 1 } }),
    await client.user.hardDelete({ where: { id: 1 } }),
    await client.user.restoreVersion({ where: { id: 1 }, version: 2 }),
    await client.user.findUniqueOrThrow({ where: { id: 1 }, asOf: new Date() }),
    (await client.user.findMany({ asOf: new Date() }))[0]!,
    (await client.user.history({ where: { id: 1 } }))[0]!.data!,
  ]) {
    expectTypeEqual<keyof typeof row, ReadableUserColumn>();
  }
  // Through another model's include, and with select (what is left of it).
  const posts = await client.post.findMany({ include: { author: true } });
  expectTypeEqual<keyof (typeof posts)[number]['author'], ReadableUserColumn>();
  const selected = await client.user.findMany({ select: { id: true, posts: { select: { title: true } } } });
  expectTypeEqual<typeof selected, { id: number; posts: { title: string }[] }[]>();
  // Models without unreadable columns answer Prisma's rows; counts and batches are untouched.
  const tag = await client.tag.findUniqueOrThrow({ where: { id: 1 } });
  expectTypeEqual<typeof tag, Result<ReturnType<typeof prisma.tag.findUniqueOrThrow>>>();
  expectTypeEqual<Result<ReturnType<typeof client.user.count>>, number>();
  expectTypeEqual<Result<ReturnType<typeof client.user.deleteMany>>, Prisma.BatchPayload>();

  // @ts-expect-error an internal column is in no answer
  void found.createdAt;
  // @ts-expect-error nor a write-only one
  void many[0]!.passwordHash;
  // @ts-expect-error nor in an included relation
  void posts[0]!.author.passwordHash;
}

export function refusesWhatTheServerRefuses() {
  // @ts-expect-error a server-set column
  void client.user.create({ data: { email: 'e', name: 'n', password: 'p', role: 'ADMIN' } });
  // @ts-expect-error an internal column
  void client.user.update({ where: { id: 1 }, data: { createdAt: new Date() } });
  // @ts-expect-error a create without a required virtual field
  void client.user.create({ data: { email: 'e', name: 'n' } });
  // @ts-expect-error a virtual field's value of another type
  void client.user.create({ data: { email: 'e', name: 'n', password: 1 } });
  // @ts-expect-error a server-set foreign key
  void client.post.create({ data: { title: 't', authorId: 1 } });
  // @ts-expect-error the relation through it
  void client.post.update({ where: { id: 1 }, data: { author: { connect: { id: 1 } } } });
  // @ts-expect-error a server-set column in batch data
  void client.user.updateMany({ data: { role: 'ADMIN' } });
  void client.user.upsert({
    where: { id: 1 },
    // @ts-expect-error a server-set column in an upsert's create
    create: { email: 'e', name: 'n', password: 'p', role: 'ADMIN' },
    update: {},
  });
  // @ts-expect-error a member the arguments do not have
  void client.user.update({ where: { id: 1 }, data: {}, nope: true });
}

export function leavesEverythingElseAsPrismaHasIt() {
  expectTypeEqual<Parameters<typeof client.user.count>, Parameters<typeof prisma.user.count>>();
  expectTypeEqual<Parameters<typeof untyped.user.create>, Parameters<typeof prisma.user.create>>();
  expectTypeEqual<Parameters<typeof untyped.user.findMany>, Parameters<typeof prisma.user.findMany>>();
  expectTypeEqual<DataOf<typeof client.tag.update>, DataOf<typeof prisma.tag.update>>();
}
