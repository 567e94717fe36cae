import { Decimal } from '@prisma/client/runtime/client';

import type { DatabaseProvider } from '../../fixtures/blog/database/database-url.js';
import { expectJsonApiError } from '../support/json-api-expect.js';
import { type BlogFixture, seedBlog } from '../support/rest-fixtures.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/**
 * Every behaviour that differs by database, with the answer the module gives on each: the
 * table of docs/databases.md, checked. Rows read `{ sqlite, postgresql, mysql }`.
 */
type ByDatabase<T> = Record<DatabaseProvider, T>;

describe.each(testProviders())('what differs by database (%s)', (provider) => {
  let f: BlogFixture;
  const t = useTestApp(provider, {
    seed: async ({ db }) => {
      f = await seedBlog(db);
    },
  });

  const on = <T>(answers: ByDatabase<T>): T => answers[provider];
  const get = (url: string) => t.http().get(`/api/rest${url}`);
  const titles = async (query: string) => {
    const res = await get(`/post?${query}&sort=id`);
    return res.status === 200 ? res.body.data.map((post: { id: number }) => post.id) : res.status;
  };

  it('equality follows the column collation: case-sensitive on SQLite and PostgreSQL, not on MySQL', async () => {
    expect(await titles('filter[title]=hello world')).toEqual(on({ sqlite: [], postgresql: [], mysql: [f.hello] }));
    expect((await callRpc(t, 'get', 'user/count', { where: { email: 'ALICE@example.com' } })).data).toBe(
      on({ sqlite: 0, postgresql: 0, mysql: 1 }),
    );
  });

  it('$contains is case-insensitive on SQLite (ASCII LIKE) and MySQL (collation), case-sensitive on PostgreSQL', async () => {
    expect(await titles('filter[title$contains]=world')).toEqual(
      on({ sqlite: [f.hello], postgresql: [], mysql: [f.hello] }),
    );
  });

  it('$icontains is case-insensitive everywhere; RPC `mode` exists on PostgreSQL only (400 elsewhere)', async () => {
    expect(await titles('filter[title$icontains]=HELLO world')).toEqual([f.hello]);
    const mode = await callRpc(t, 'get', 'post/count', {
      where: { title: { contains: 'WORLD', mode: 'insensitive' } },
    });
    expect(mode.status === 200 ? mode.data : mode.status).toBe(on({ sqlite: 400, postgresql: 1, mysql: 400 }));
  });

  it('$search: full text on PostgreSQL, on MySQL where the field has a FULLTEXT index (400 without one), 400 on SQLite', async () => {
    expect(await titles('filter[content$search]=index words')).toEqual(
      on<unknown>({ sqlite: 400, postgresql: [f.percent], mysql: [f.percent] }),
    );
    const unindexed = await get('/post?filter[title$search]=hello');
    if (provider === 'postgresql') expect(unindexed.status).toBe(200);
    else
      expectJsonApiError(
        unindexed,
        400,
        on({ sqlite: 'invalid-query-parameter', postgresql: '', mysql: 'data-layer-error' }),
      );
    if (provider === 'mysql') expect(unindexed.body.errors[0].detail).toMatch(/FULLTEXT index/);
    const rpc = await callRpc(t, 'get', 'post/count', { where: { content: { search: '+index +words' } } });
    expect(rpc.status === 200 ? rpc.data : rpc.status).toBe(on({ sqlite: 400, postgresql: 400, mysql: 1 }));
  });

  it('% and _ match themselves where LIKE has an escape character, are refused (400) on SQLite; \\ matches itself everywhere', async () => {
    expect(await titles('filter[title$contains]=_')).toEqual(
      on<unknown>({ sqlite: 400, postgresql: [f.draft], mysql: [f.draft] }),
    );
    expect(await titles('filter[title$startsWith]=100%25')).toEqual(
      on<unknown>({ sqlite: 400, postgresql: [f.percent], mysql: [f.percent] }),
    );
    expect(await titles('filter[title$endsWith]=%5C')).toEqual([]);
  });

  it('scalar lists exist on PostgreSQL only: list filters on SQLite and MySQL are 400 (no such field)', async () => {
    const res = await get('/post?filter[keywords$has]=intro');
    if (provider === 'postgresql') expect(res.body.data.map((post: { id: number }) => post.id)).toEqual([f.hello]);
    else expectJsonApiError(res, 400, 'invalid-query-parameter', { parameter: 'filter[keywords$has]' });
  });

  it('createManyAndReturn and updateManyAndReturn: 400 naming the missing RETURNING on MySQL, nothing written', async () => {
    const created = await callRpc(t, 'post', 'tag/createManyAndReturn', { data: [{ name: 'r1' }] });
    const updated = await callRpc(t, 'patch', 'tag/updateManyAndReturn', {
      where: { name: 'news' },
      data: { name: 'news!' },
    });
    expect([created.status, updated.status]).toEqual(
      on({ sqlite: [201, 200], postgresql: [201, 200], mysql: [400, 400] }),
    );
    if (provider === 'mysql') {
      expect(created.body.error.message).toMatch(
        /^"createManyAndReturn" is not available on mysql: the database has no RETURNING clause/,
      );
      expect(updated.body.error.message).toMatch(/^"updateManyAndReturn" is not available on mysql/);
      expect(await t.db.prisma.tag.count({ where: { name: { in: ['r1', 'news!'] } } })).toBe(0);
    }
    expect((await callRpc(t, 'post', 'tag/createMany', { data: [{ name: 'r2' }] })).status).toBe(201);
  });

  it('Json filters: `path` is an array on PostgreSQL and a JSON path string elsewhere; the answers agree', async () => {
    const path = on<unknown>({ sqlite: '$.featured', postgresql: ['featured'], mysql: '$.featured' });
    const reply = await callRpc(t, 'get', 'post/findMany', {
      where: { metadata: { path, equals: true } },
      select: { id: true },
    });
    expect(reply.data).toEqual([{ id: f.hello }]);
    const other = on<unknown>({ sqlite: ['featured'], postgresql: '$.featured', mysql: ['featured'] });
    expect((await callRpc(t, 'get', 'post/count', { where: { metadata: { path: other, equals: true } } })).status).toBe(
      400,
    );
  });

  it('BigInt, Bytes and DateTime round-trip exactly; Decimal keeps every digit except on SQLite (a REAL: 15 significant digits)', async () => {
    const data = {
      title: 'precision',
      authorId: f.alice,
      views: -9223372036854775808n,
      price: new Decimal('12345678901234567890.123456789'),
      publishedAt: new Date('1999-12-31T23:59:59.999Z'),
    };
    const created = await callRpc(t, 'post', 'post/create', {
      data,
      select: { id: true, views: true, price: true, publishedAt: true },
    });
    expect(created.status).toBe(201);
    const read = (
      await callRpc(t, 'get', 'post/findUnique', {
        where: { id: created.data.id },
        select: { views: true, price: true, publishedAt: true },
      })
    ).data;
    expect(read).toEqual({ views: data.views, price: expect.any(Decimal), publishedAt: data.publishedAt });
    expect(read.price.toFixed()).toBe(
      on({
        sqlite: '12345678901234567000',
        postgresql: '12345678901234567890.123456789',
        mysql: '12345678901234567890.123456789',
      }),
    );
    const bytes = new Uint8Array(Array.from({ length: 256 }, (_, i) => i));
    const profile = await callRpc(t, 'post', 'profile/create', {
      data: { userId: f.bob, avatar: bytes },
      select: { avatar: true },
    });
    expect(new Uint8Array(profile.data.avatar)).toEqual(bytes);
  });

  it('database errors map to the same status everywhere: duplicates, foreign keys, a restricted delete', async () => {
    const duplicate = await get('/user').then(() =>
      t
        .http()
        .post('/api/rest/user')
        .set('content-type', 'application/vnd.api+json')
        .send({ data: { type: 'user', attributes: { email: 'alice@example.com', name: 'A' } } }),
    );
    expectJsonApiError(duplicate, 400, 'constraint-violation');
    const missingParent = await callRpc(t, 'post', 'post/create', { data: { title: 'orphan', authorId: 999999 } });
    expect(missingParent.status).toBe(400);
    expect(missingParent.body.error.message).toBe('A related record does not exist (foreign key constraint).');
    const restricted = await callRpc(t, 'delete', 'user/delete', { where: { id: f.bob } });
    expect(restricted.status).toBe(400);
    expect(await t.db.prisma.user.count({ where: { id: f.bob } })).toBe(1);
  });

  it('values out of the column range: 400 where the database checks them (MySQL VARCHAR(191), DECIMAL(65,30))', async () => {
    const long = await callRpc(t, 'post', 'tag/create', { data: { name: 'x'.repeat(192) } });
    expect(long.status).toBe(on({ sqlite: 201, postgresql: 201, mysql: 400 }));
    if (provider === 'mysql') expect(long.body.error.message).toBe('A value is too long for its field.');
    const huge = await callRpc(t, 'post', 'post/create', {
      data: { title: 'huge', authorId: f.alice, price: new Decimal('1e40') },
      select: { id: true },
    });
    // Beyond DECIMAL(65,30), which SQLite would store as a REAL: refused on every database.
    expect(huge.status).toBe(400);
  });
});
