import type { SamplePrismaClient } from '../../fixtures/blog/database/create-prisma-client.js';
import { type RowVersion, type RpcClient, RpcClientError } from '../../lib/client/index.js';
import { expectTypeEqual } from '../client/type-equality.js';
import { listenRpc, sampleRpcClient } from '../support/listening-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

type Post = Awaited<ReturnType<SamplePrismaClient['post']['findUniqueOrThrow']>>;

/** Waits until the database's clock has moved past the last write (SQLite keeps milliseconds). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));

// The typed client against a running application with history: versions, reads as of a past time and
// restoring a version, over HTTP.
describe.each(testProviders())('typed RPC client and history (%s)', (provider) => {
  let client: RpcClient<SamplePrismaClient>;
  let authorId: number;
  const requests: string[] = [];

  const t = useTestApp(provider, {
    options: { history: { model: 'HistoryEntry' }, rules: { Post: { history: true } } },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'author@x.test', name: 'Author' } })).id;
    },
  });
  beforeAll(async () => {
    const baseUrl = await listenRpc(t);
    client = sampleRpcClient(baseUrl, {
      fetch: (input, init) => {
        requests.push(`${init?.method} ${new URL(String(input)).pathname.replace(/^.*\/rpc/, '')}`);
        return fetch(input, init);
      },
    });
  });

  it('reads a post’s versions and the post as it was, and puts a version back', async () => {
    const created = await client.post.create({ data: { title: 'first', authorId, views: 1n } });
    await tick();
    const between = new Date();
    await tick();
    const updated = await client.post.update({ where: { id: created.id }, data: { title: 'second', views: 2n } });

    const versions = await client.post.history({ where: { id: created.id } });
    expectTypeEqual<typeof versions, RowVersion<Post>[]>();
    expect(versions.map(({ operation, changed }) => ({ operation, changed: changed.includes('title') }))).toEqual([
      { operation: 'update', changed: true },
      { operation: 'create', changed: true },
    ]);
    const [latest, original] = versions;
    expect(latest!.version).toBeGreaterThan(original!.version);
    expect(latest!.at).toBeInstanceOf(Date);
    expect(original!.at.getTime()).toBeLessThanOrEqual(between.getTime());
    expect(latest!.at.getTime()).toBeGreaterThanOrEqual(between.getTime());
    // The recorded rows come back typed as the model's: Dates, BigInts.
    expect(original!.data).toEqual(created);
    expect(original!.data!.createdAt).toBeInstanceOf(Date);
    expect(latest!.data).toEqual(updated);
    expect(await client.post.history({ where: { id: created.id }, order: 'asc', take: 1 })).toEqual([original]);
    expect(await client.post.history({ where: { id: created.id }, since: between })).toEqual([latest]);

    // As of a time between the writes: the created state, by every read that takes asOf.
    const asOf = between;
    expect(await client.post.findUnique({ where: { id: created.id }, asOf })).toEqual(created);
    expect(await client.post.findMany({ where: { id: created.id }, asOf, select: { title: true } })).toEqual([
      { title: 'first' },
    ]);
    // (A number: MySQL's string comparisons follow the column's collation, which the past rows cannot.)
    const viewed = { id: created.id, views: { gte: 2n } };
    expect(await client.post.count({ where: viewed, asOf: asOf.toISOString() })).toBe(0);
    expect(await client.post.count({ where: viewed })).toBe(1);
    expect(await client.post.findFirstOrThrow({ where: { id: created.id } })).toEqual(updated);

    // Back to the first version: an update, recorded as a new version.
    const restored = await client.post.restoreVersion({
      where: { id: created.id },
      version: original!.version,
      select: { id: true, title: true, views: true },
    });
    expect(restored).toEqual({ id: created.id, title: 'first', views: 1n });
    const after = await client.post.history({ where: { id: created.id } });
    expect(after).toHaveLength(3);
    expect(after[0]).toMatchObject({ operation: 'update', data: { title: 'first', views: 1n } });
    expect(after[0]!.version).toBeGreaterThan(latest!.version);
    expect(requests).toEqual(
      expect.arrayContaining(['GET /post/history', 'GET /post/findUnique', 'POST /post/restoreVersion']),
    );
  });

  it('answers the server’s refusals as RpcClientError', async () => {
    const refusal = (call: PromiseLike<unknown>) =>
      Promise.resolve(call).then(
        () => undefined,
        (error: unknown) => error,
      );
    const missing = await refusal(client.post.history({ where: { id: 999_999 } }));
    expect(missing).toBeInstanceOf(RpcClientError);
    expect(missing).toMatchObject({ status: 404 });
    // A model without history: the types offer it (they cannot tell), the server refuses it.
    expect(await refusal(client.tag.history({ where: { id: 1 } }))).toMatchObject({
      status: 400,
      errorCode: 'unknown-operation',
    });
    expect(await refusal(client.tag.findMany({ asOf: new Date() }))).toMatchObject({
      status: 400,
      errorCode: 'as-of-unsupported',
    });
  });
});
