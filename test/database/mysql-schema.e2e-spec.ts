import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { DMMF } from '@prisma/generator-helper';

import { withMysql } from '../../fixtures/blog/database/prepare-database.js';
import { LIVE_UNIQUE_INDEXES, sampleSchemas } from '../../fixtures/blog/database/sample-schemas.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

/**
 * The MySQL DDL kept in fixtures/blog/prisma/mysql/schema.sql (the offline schema engine has no MySQL
 * connector) against the Prisma schema it stands for: the same tables, columns, types,
 * nullability and indexes, and every model and field round-trips through the generated client.
 */

// Prisma's own schema parser (WebAssembly, on npm) gives the DMMF a generator receives.
const schemaWasm = createRequire(import.meta.url)('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };
const dmmf = JSON.parse(
  schemaWasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', readFileSync(sampleSchemas.mysql, 'utf8')]] })),
).datamodel as DMMF.Datamodel & { indexes: { model: string; type: string; fields: { name: string }[] }[] };

/** The column type `prisma db push` gives each Prisma type on MySQL/MariaDB (Json is LONGTEXT with a CHECK on MariaDB). */
const COLUMN_TYPES: Record<string, string[]> = {
  String: ['varchar'],
  Int: ['int'],
  BigInt: ['bigint'],
  Float: ['double'],
  Decimal: ['decimal'],
  Boolean: ['tinyint'],
  DateTime: ['datetime'],
  Json: ['json', 'longtext'],
  Bytes: ['longblob'],
};

interface Column {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

/** table.column → what the schema expects, implicit many-to-many tables included. */
function expectedColumns(): Column[] {
  const columns = dmmf.models.flatMap((model) =>
    model.fields
      .filter((field) => field.kind === 'scalar' || field.kind === 'enum')
      .map((field) => ({
        table: model.dbName ?? model.name,
        column: field.dbName ?? field.name,
        type: field.kind === 'enum' ? 'enum' : (nativeType(field) ?? COLUMN_TYPES[field.type]![0]!),
        nullable: !field.isRequired,
      })),
  );
  const implicit = new Set(
    dmmf.models.flatMap((model) =>
      model.fields
        .filter(
          (field) =>
            field.kind === 'object' && field.isList && field.relationFromFields?.length === 0 && isManyToMany(field),
        )
        .map((field) => field.relationName!),
    ),
  );
  for (const relation of implicit) {
    for (const column of ['A', 'B']) columns.push({ table: `_${relation}`, column, type: 'int', nullable: false });
  }
  return columns.sort(byName);
}

/** The column type a `@db.X` attribute names (`@db.Text` is `text`). */
function nativeType(field: DMMF.Field): string | undefined {
  return (field.nativeType as [string, string[]] | null | undefined)?.[0].toLowerCase();
}

/** A list relation whose other side is a list too (an implicit many-to-many table). */
function isManyToMany(field: DMMF.Field): boolean {
  const other = dmmf.models.find((model) => model.name === field.type)!;
  return other.fields.some(
    (candidate) => candidate !== field && candidate.relationName === field.relationName && candidate.isList,
  );
}

const byName = (a: Column, b: Column) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);

const onMysql = testProviders().includes('mysql') ? describe : describe.skip;

onMysql('the MySQL DDL matches the sample schema (skipped without a MySQL/MariaDB server)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('mysql');
  });
  afterAll(() => db.drop());

  const query = <T>(sql: string) => withMysql(db.url, (connection) => connection.query<T>(sql));

  it('has exactly the tables and columns of the schema, with their types and nullability', async () => {
    const rows = await query<{ table: string; column: string; type: string; nullable: string }[]>(
      'SELECT table_name AS `table`, column_name AS `column`, data_type AS type, is_nullable AS nullable FROM information_schema.columns WHERE table_schema = database()',
    );
    const actual = rows
      .filter((row) => !LIVE_UNIQUE_INDEXES.some((live) => live.table === row.table && live.mysqlColumn === row.column))
      .map((row) => ({ ...row, nullable: row.nullable === 'YES' }))
      .sort(byName);
    const expected = expectedColumns();
    expect(actual.map(({ table, column, nullable }) => ({ table, column, nullable }))).toEqual(
      expected.map(({ table, column, nullable }) => ({ table, column, nullable })),
    );
    for (const [index, column] of actual.entries()) {
      const type = expected[index]!.type;
      const accepted = Object.values(COLUMN_TYPES).find((types) => types[0] === type) ?? [type];
      expect({ column: `${column.table}.${column.column}`, type: accepted.includes(column.type) }).toEqual({
        column: `${column.table}.${column.column}`,
        type: true,
      });
    }
  });

  it('has the primary keys, unique, plain and FULLTEXT indexes of the schema', async () => {
    const rows = await query<{ table: string; name: string; unique: number; kind: string; columns: string }[]>(
      "SELECT table_name AS `table`, index_name AS name, 1 - MIN(non_unique) AS `unique`, MIN(index_type) AS kind, GROUP_CONCAT(column_name ORDER BY seq_in_index) AS columns FROM information_schema.statistics WHERE table_schema = database() AND table_name NOT LIKE '\\_%' GROUP BY table_name, index_name",
    );
    const actual = new Set(
      rows.map(
        (row) =>
          `${row.table}(${row.columns}) ${row.name === 'PRIMARY' ? 'id' : row.kind === 'FULLTEXT' ? 'fulltext' : Number(row.unique) ? 'unique' : 'normal'}`,
      ),
    );
    const columnOf = (model: DMMF.Model, name: string) =>
      model.fields.find((field) => field.name === name)!.dbName ?? name;
    // A unique index among live rows is on its generated column.
    const liveColumn = (table: string, column: string) =>
      LIVE_UNIQUE_INDEXES.find((live) => live.table === table && live.column === column)?.mysqlColumn ?? column;
    for (const index of dmmf.indexes) {
      const model = dmmf.models.find((candidate) => candidate.name === index.model)!;
      const table = model.dbName ?? model.name;
      const columns = index.fields.map((field) => liveColumn(table, columnOf(model, field.name)));
      expect(actual).toContain(`${table}(${columns.join(',')}) ${index.type}`);
    }
  });

  it('round-trips every model and every field through the client', async () => {
    const { prisma } = db;
    const written: Record<string, Record<string, unknown>> = {};
    const alice = await prisma.user.create({
      data: {
        email: 'Alice@Example.com',
        name: 'Ålice 🦊',
        role: 'ADMIN',
        passwordHash: 'h',
        createdAt: new Date('2001-02-03T04:05:06.789Z'),
      },
    });
    written.User = alice;
    const bob = await prisma.user.create({
      data: { email: 'bob@example.com', name: 'Bob', following: { connect: { id: alice.id } } },
    });
    written.Profile = await prisma.profile.create({
      data: {
        id: 'profile-1',
        bio: 'x'.repeat(191),
        avatar: new Uint8Array([0, 1, 127, 128, 255]),
        settings: { deep: [1, 'two', null, { three: true }] },
        userId: alice.id,
      },
    });
    const tag = await prisma.tag.create({ data: { name: 'tag' } });
    written.Tag = tag;
    const post = await prisma.post.create({
      data: {
        title: 'T',
        content: 'C',
        status: 'ARCHIVED',
        published: true,
        rating: 0.1,
        price: '12345678901234567890.123456789012345678901234567890',
        views: 9223372036854775807n,
        metadata: { a: 1 },
        publishedAt: new Date('2026-12-31T23:59:59.999Z'),
        createdAt: new Date('2026-01-01T00:00:00.001Z'),
        authorId: alice.id,
        tags: { connect: { id: tag.id } },
      },
    });
    written.Post = post;
    const comment = await prisma.comment.create({
      data: { id: 'c1', body: 'B', postId: post.id, authorId: bob.id, createdAt: new Date('2026-01-01T00:00:00Z') },
    });
    written.Comment = await prisma.comment.create({
      data: { id: 'c2', body: 'R', postId: post.id, authorId: null, parentId: comment.id },
    });
    written.Like = await prisma.like.create({
      data: { userId: bob.id, postId: post.id, createdAt: new Date('2026-01-01T00:00:00Z') },
    });
    const audit = await prisma.auditEntry.create({
      data: {
        at: new Date('2026-01-01T00:00:00.001Z'),
        actorId: alice.id,
        model: 'M'.repeat(191),
        operation: 'update',
        recordId: '1_2',
      },
    });
    written.AuditEntry = audit;
    written.IdempotencyKey = await prisma.idempotencyKey.create({
      data: {
        id: 'k'.repeat(43),
        fingerprint: 'f'.repeat(43),
        status: 201,
        headers: { Location: 'x'.repeat(500), ETag: '"tag"' },
        body: new Uint8Array(70_000).fill(7),
        expiresAt: new Date('2026-01-02T00:00:00.001Z'),
      },
    });
    const entry = await prisma.outboxEntry.create({
      data: {
        model: 'Post',
        operation: 'update',
        rowKey: `{"id":"${'r'.repeat(100)}"}`,
        payload: { model: 'Post', after: { title: 'x'.repeat(5000) } },
        createdAt: new Date('2026-01-02T00:00:00.002Z'),
        status: 'dead',
        attempts: 10,
        nextAttemptAt: new Date('2026-01-02T00:00:00.003Z'),
        lockedUntil: new Date('2026-01-02T00:00:00.004Z'),
        lastError: 'e'.repeat(1000),
        deliveredTo: ['hook'],
      },
    });
    written.OutboxEntry = entry;
    // `at` is left to the table's default (the database's clock); a long key and a large row fit.
    const version = await prisma.historyEntry.create({
      data: {
        model: 'Post',
        rowKey: `sha256:${'a'.repeat(64)}`,
        operation: 'update',
        data: { title: 'x'.repeat(5000) },
        before: { title: 'y' },
        changed: ['title'],
        actor: 'a'.repeat(191),
        requestId: 'r'.repeat(128),
      },
    });
    expect(Math.abs(version.at.getTime() - Date.now())).toBeLessThan(60_000);
    written.HistoryEntry = version;
    // A key differing in case only is another bucket; the largest tat fits.
    written.RateLimitBucket = await prisma.rateLimitBucket.create({
      data: { id: `K${'k'.repeat(190)}`, tat: 2n ** 63n - 1n },
    });
    await prisma.rateLimitBucket.create({ data: { id: 'k'.repeat(191), tat: 0n } });

    // Every scalar field of every model was written (so a field added to the schema fails here until the DDL has it).
    for (const model of dmmf.models) {
      const fields = model.fields.filter((field) => field.kind !== 'object').map((field) => field.name);
      expect({ model: model.name, fields: Object.keys(written[model.name] ?? {}).sort() }).toEqual({
        model: model.name,
        fields: fields.sort(),
      });
    }
    const read = {
      User: await prisma.user.findUniqueOrThrow({ where: { id: alice.id } }),
      Profile: await prisma.profile.findUniqueOrThrow({ where: { id: 'profile-1' } }),
      Tag: await prisma.tag.findUniqueOrThrow({ where: { id: tag.id } }),
      Post: await prisma.post.findUniqueOrThrow({ where: { id: post.id } }),
      Comment: await prisma.comment.findUniqueOrThrow({ where: { id: 'c2' } }),
      Like: await prisma.like.findUniqueOrThrow({ where: { userId_postId: { userId: bob.id, postId: post.id } } }),
      AuditEntry: await prisma.auditEntry.findUniqueOrThrow({ where: { id: audit.id } }),
      IdempotencyKey: await prisma.idempotencyKey.findUniqueOrThrow({ where: { id: 'k'.repeat(43) } }),
      OutboxEntry: await prisma.outboxEntry.findUniqueOrThrow({ where: { id: entry.id } }),
      HistoryEntry: await prisma.historyEntry.findUniqueOrThrow({ where: { id: version.id } }),
      RateLimitBucket: await prisma.rateLimitBucket.findUniqueOrThrow({ where: { id: `K${'k'.repeat(190)}` } }),
    };
    expect(read).toEqual(written);
    expect(read.Post.price.toFixed(30)).toBe('12345678901234567890.123456789012345678901234567890');
    expect(
      await prisma.user.findUniqueOrThrow({
        where: { id: bob.id },
        select: { following: { select: { id: true } }, likes: { select: { postId: true } } },
      }),
    ).toEqual({
      following: [{ id: alice.id }],
      likes: [{ postId: post.id }],
    });
    expect(
      await prisma.post.findUniqueOrThrow({
        where: { id: post.id },
        select: {
          tags: { select: { id: true } },
          comments: { select: { id: true, replies: { select: { id: true } } }, orderBy: { id: 'asc' } },
        },
      }),
    ).toEqual({
      tags: [{ id: tag.id }],
      comments: [
        { id: 'c1', replies: [{ id: 'c2' }] },
        { id: 'c2', replies: [] },
      ],
    });
  });
});
