import type { PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import { createRpcClient } from '../../lib/client/create-rpc-client.js';
import { offlineFirst, offlineQueue } from '../../lib/client/offline/offline-client.js';
import { memoryStore, type OfflineStore } from '../../lib/client/offline/offline-store.js';
import type { OfflineEvent } from '../../lib/client/offline/write-queue.js';
import { withDeleted } from '../../lib/client/rpc-promise.js';
import { listenOnLoopback } from '../support/browser.js';
import { OFFLINE_APP_OPTIONS, seedOfflineUsers } from '../support/offline-app.js';
import { OfflineNetwork } from '../support/offline-network.js';
import { useTestApp } from '../support/test-app.js';

// The queue's behaviour in Node against the module (the database plays no part in what the client
// does, so SQLite alone): the database is checked after each schedule.
describe('offline client (RPC write queue)', () => {
  let origin = '';
  let alice = 0;
  let bob = 0;
  const t = useTestApp('sqlite', {
    options: OFFLINE_APP_OPTIONS,
    seed: async ({ db }) => ({ alice, bob } = await seedOfflineUsers(db)),
  });
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
  });
  beforeEach(async () => {
    await t.db.prisma.comment.deleteMany();
    await t.db.prisma.post.deleteMany();
  });

  /** A client of `user` over `network`, keeping its queue in `store` (a new client on the same store is a reload). */
  const clientOf = (store: OfflineStore, network: OfflineNetwork, user = alice) =>
    createRpcClient<PrismaClient>({
      baseUrl: `${origin}/api/rpc`,
      headers: { 'x-user-id': String(user) },
      fetch: network.fetch,
      offline: offlineFirst({ store, modelMeta: t.db.modelMeta, retryDelay: () => 5 }),
    });
  /** Starts a call (calls are lazy: nothing is sent, or queued, until awaited). */
  const start = <T>(call: PromiseLike<T>): Promise<T> => {
    const started = Promise.resolve(call);
    started.catch(() => undefined);
    return started;
  };
  const eventsOf = (client: object) => {
    const events: OfflineEvent[] = [];
    offlineQueue(client).subscribe((event) => events.push(event));
    return events;
  };

  it('applies writes made offline exactly once after a reload, in order', async () => {
    const store = memoryStore();
    const network = new OfflineNetwork();
    network.offline = true;
    const before = clientOf(store, network);
    start(before.post.create({ data: { title: 'one', author: { connect: { id: alice } } } }));
    start(before.post.create({ data: { title: 'two', author: { connect: { id: alice } } } }));
    await offlineQueue(before).settled();
    expect(offlineQueue(before).pending).toHaveLength(2);

    // The page reloads, then the connection comes back.
    offlineQueue(before).close();
    const after = clientOf(store, network);
    await offlineQueue(after).ready;
    expect(offlineQueue(after).pending.map((write) => write.args)).toEqual([
      { data: { title: 'one', author: { connect: { id: alice } } } },
      { data: { title: 'two', author: { connect: { id: alice } } } },
    ]);
    network.offline = false;
    offlineQueue(after).flush();
    await offlineQueue(after).settled();
    expect((await t.db.prisma.post.findMany({ orderBy: { id: 'asc' } })).map((post) => post.title)).toEqual([
      'one',
      'two',
    ]);
    expect(offlineQueue(after).pending).toEqual([]);
  });

  it('applies a write once when the connection drops before its answer', async () => {
    const network = new OfflineNetwork();
    const client = clientOf(memoryStore(), network);
    network.dropAnswers = 2;
    const created = await client.post.create({ data: { title: 'dropped', author: { connect: { id: alice } } } });
    expect(created.title).toBe('dropped');
    expect(network.sent.filter((line) => line.startsWith('POST /api/rpc/post/create'))).toHaveLength(3);
    expect(await t.db.prisma.post.count({ where: { title: 'dropped' } })).toBe(1);
  });

  it('names a row created offline in later writes, which get its id once it is applied', async () => {
    const network = new OfflineNetwork();
    network.offline = true;
    const client = clientOf(memoryStore(), network);
    const events = eventsOf(client);
    start(client.post.create({ data: { title: 'offline post', author: { connect: { id: alice } } } }));
    await offlineQueue(client).settled();
    const postId = (events[0] as Extract<OfflineEvent, { type: 'queued' }>).write.placeholders!.id as number;
    expect(postId).toBeLessThan(-(2 ** 31));
    const comment = start(client.comment.create({ data: { body: 'first', post: { connect: { id: postId } } } }));
    const update = start(client.post.update({ where: { id: postId }, data: { title: 'renamed' } }));
    network.offline = false;
    offlineQueue(client).flush();
    const saved = await comment;
    await update;
    const [post] = await t.db.prisma.post.findMany();
    expect(post?.title).toBe('renamed');
    expect(saved.postId).toBe(post?.id);
    expect(offlineQueue(client).idOf(postId)).toBe(post?.id);
  });

  it('holds a write made on a version changed since as a conflict, applying nothing until resolved', async () => {
    const post = await t.db.prisma.post.create({ data: { title: 'v1', authorId: alice } });
    const network = new OfflineNetwork();
    const client = clientOf(memoryStore(), network);
    const events = eventsOf(client);
    await client.post.findMany({ where: { authorId: alice } }); // the list the edit is made from
    network.offline = true;
    const mine = start(client.post.update({ where: { id: post.id }, data: { title: 'mine' } }));
    await offlineQueue(client).settled();
    await t.db.prisma.post.update({ where: { id: post.id }, data: { title: 'theirs' } });
    network.offline = false;
    offlineQueue(client).flush();
    await offlineQueue(client).settled();
    const conflict = offlineQueue(client).conflict!;
    expect(conflict).toMatchObject({ operation: 'update', args: { data: { title: 'mine' } } });
    expect(conflict.theirs).toMatchObject({ id: post.id, title: 'theirs' });
    expect(events.map((event) => event.type)).toEqual(['queued', 'waiting', 'conflict']);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).title).toBe('theirs');

    await offlineQueue(client).resolve(conflict.key, { args: { where: { id: post.id }, data: { title: 'merged' } } });
    expect((await mine).title).toBe('merged');
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).title).toBe('merged');
  });

  it('reports a refused write, and drops the writes that depend on it', async () => {
    const theirs = await t.db.prisma.post.create({ data: { title: 'bob’s', authorId: bob } });
    const network = new OfflineNetwork();
    network.offline = true;
    const client = clientOf(memoryStore(), network);
    const events = eventsOf(client);
    const denied = start(client.post.update({ where: { id: theirs.id }, data: { title: 'not mine' } }));
    const next = start(client.post.update({ where: { id: theirs.id }, data: { content: 'on top' } }));
    const other = start(client.post.create({ data: { title: 'mine', author: { connect: { id: alice } } } }));
    await offlineQueue(client).settled();
    network.offline = false;
    offlineQueue(client).flush();
    await expect(denied).rejects.toMatchObject({ status: 403 });
    await expect(next).rejects.toMatchObject({ status: 403 });
    expect((await other).title).toBe('mine');
    expect(events.filter((event) => event.type === 'refused')).toHaveLength(2);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: theirs.id } })).title).toBe('bob’s');
  });

  it('judges a replayed write by the permissions when it is sent: a batch refused whole, nothing written', async () => {
    const post = await t.db.prisma.post.create({ data: { title: 'alice’s', authorId: alice } });
    const network = new OfflineNetwork();
    network.offline = true;
    const client = clientOf(memoryStore(), network);
    const batch = start(
      client.$transaction([
        client.comment.create({ data: { body: 'before the rename', post: { connect: { id: post.id } } } }),
        client.post.update({ where: { id: post.id }, data: { title: 'renamed offline' } }),
      ]),
    );
    await offlineQueue(client).settled();
    // While alice is offline the post passes to bob: she may no longer rename it.
    await t.db.prisma.post.update({ where: { id: post.id }, data: { authorId: bob } });
    network.offline = false;
    offlineQueue(client).flush();
    await expect(batch).rejects.toMatchObject({ status: 403 });
    expect(await t.db.prisma.comment.count()).toBe(0);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id: post.id } })).title).toBe('alice’s');
    expect(offlineQueue(client).pending).toEqual([]);
  });

  it('loses no write of two clients over one store (two tabs), and applies each once', async () => {
    const store = memoryStore();
    const network = new OfflineNetwork();
    network.offline = true;
    const [first, second] = [clientOf(store, network), clientOf(store, network)];
    const titles = Array.from({ length: 6 }, (_, index) => `tab ${index % 2} post ${index}`);
    const created = titles.map((title, index) =>
      start((index % 2 ? second : first).post.create({ data: { title, author: { connect: { id: alice } } } })),
    );
    await Promise.all([offlineQueue(first).settled(), offlineQueue(second).settled()]);
    // Each sees every write the other queued: they share what the store keeps.
    offlineQueue(first).flush();
    await offlineQueue(first).settled();
    expect(offlineQueue(first).pending.map((write) => (write.args as { data: { title: string } }).data.title)).toEqual(
      expect.arrayContaining(titles),
    );
    network.offline = false;
    offlineQueue(first).flush();
    offlineQueue(second).flush();
    // Each call's promise settles in the client that made it, whichever sent it.
    expect((await Promise.all(created)).map((post) => post.title)).toEqual(titles);
    expect((await t.db.prisma.post.findMany()).map((post) => post.title).sort()).toEqual([...titles].sort());
    offlineQueue(first).close();
    offlineQueue(second).close();
  });

  it('takes the placeholder of a row created offline and applied since for its id', async () => {
    const network = new OfflineNetwork();
    network.offline = true;
    const client = clientOf(memoryStore(), network);
    const events = eventsOf(client);
    const created = start(client.post.create({ data: { title: 'made offline', author: { connect: { id: alice } } } }));
    await offlineQueue(client).settled();
    const placeholder = (events[0] as Extract<OfflineEvent, { type: 'queued' }>).write.placeholders!.id as number;
    network.offline = false;
    offlineQueue(client).flush();
    const { id } = await created;
    // The page still shows the row by its placeholder: a write naming it reaches the row.
    const comment = await client.comment.create({ data: { body: 'late', post: { connect: { id: placeholder } } } });
    const renamed = await client.post.update({ where: { id: placeholder }, data: { title: 'renamed late' } });
    expect([comment.postId, renamed.id]).toEqual([id, id]);
    expect((await t.db.prisma.post.findUniqueOrThrow({ where: { id } })).title).toBe('renamed late');
  });

  it('sends a queued hardDelete with withDeleted as it was made', async () => {
    const tag = await t.db.prisma.tag.create({ data: { name: 'gone', deletedAt: new Date() } });
    const network = new OfflineNetwork();
    network.offline = true;
    const client = clientOf(memoryStore(), network);
    const removed = start(withDeleted(client.tag.hardDelete({ where: { id: tag.id } })));
    await offlineQueue(client).settled();
    network.offline = false;
    offlineQueue(client).flush();
    expect((await removed).id).toBe(tag.id);
    expect(await t.db.prisma.tag.count({ where: { id: tag.id } })).toBe(0);
  });
});
