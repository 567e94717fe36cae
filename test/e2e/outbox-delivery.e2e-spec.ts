import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import fc from 'fast-check';

import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { OUTBOX_DEFAULTS, type OutboxSettings, type WebhookTarget } from '../../lib/changes/outbox.types.js';
import { OutboxWorker } from '../../lib/changes/outbox-worker.js';
import { OutboxWriter } from '../../lib/changes/outbox-writer.js';
import { verifyWebhookSignature, withPolicies } from '../../lib/index.js';
import { eventually, settled } from '../support/eventually.js';
import { itOn } from '../support/it-on.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const JSON_API = 'application/vnd.api+json';
const SECRET = `whsec_${Buffer.from('a secret of the test').toString('base64')}`;
const OTHER_SECRET = `whsec_${Buffer.from('another secret').toString('base64')}`;
const CHILD = fileURLToPath(new URL('../outbox-child/main.ts', import.meta.url));

/** The Standard Webhooks signature, computed here without the module's helper. */
function expectedSignature(secret: string, id: string, timestamp: string, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Fast retries: the tests wait for outcomes, never for time. */
const FAST = { pollInterval: 10, backoffBase: 1, backoffCap: 5 };

describe.each(testProviders())('outbox delivery over HTTP (%s)', (provider) => {
  const receiver = new WebhookReceiver();
  const delivered: string[][] = [];
  let t: TestApp;

  beforeAll(async () => {
    await receiver.start();
    t = await createTestApp(provider, {
      options: {
        outbox: {
          model: 'OutboxEntry',
          webhooks: [{ name: 'hook', url: receiver.url, secret: SECRET }],
          onDelivered: (models) => delivered.push(models),
          ...FAST,
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  it('delivers every committed change once its write commits, signed', async () => {
    const created = await t
      .http()
      .post('/api/rest/tag')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'tag', attributes: { name: 'hooked' } } })
      .expect(201);
    const id = Number(created.body.data.id);
    await t
      .http()
      .patch('/api/rpc/tag/update')
      .send({ where: { id }, data: { name: 'hooked2' } })
      .expect(200);
    await eventually(() => expect(receiver.received).toHaveLength(2), 10_000);
    expect(receiver.deliveries().map(({ type, data }) => [type, data.id, data.after.name])).toEqual([
      ['Tag.create', { id }, 'hooked'],
      ['Tag.update', { id }, 'hooked2'],
    ]);
    for (const { headers, body } of receiver.received) {
      expect(verifyWebhookSignature({ secret: SECRET, headers, body })).toBe(true);
      const signature = expectedSignature(
        SECRET,
        String(headers['webhook-id']),
        String(headers['webhook-timestamp']),
        body,
      );
      expect(headers['webhook-signature']).toBe(signature);
      expect(verifyWebhookSignature({ secret: OTHER_SECRET, headers, body })).toBe(false);
      expect(verifyWebhookSignature({ secret: SECRET, headers, body: `${body} ` })).toBe(false);
    }
    const entries: any[] = await (t.db.prisma as any).outboxEntry.findMany({ orderBy: { id: 'asc' } });
    expect(receiver.received.map(({ headers }) => headers['webhook-id'])).toEqual(entries.map((e) => String(e.id)));
    await eventually(async () => {
      const statuses = await (t.db.prisma as any).outboxEntry.findMany({ select: { status: true, deliveredTo: true } });
      expect(statuses).toEqual([
        { status: 'delivered', deliveredTo: ['hook'] },
        { status: 'delivered', deliveredTo: ['hook'] },
      ]);
    });
    // Told per batch, each model once: the two changes may have been delivered in one batch or two.
    await eventually(() => expect([...new Set(delivered.flat())]).toEqual(['Tag']));
    for (const models of delivered) expect(models).toEqual(['Tag']);
  });

  it('stops its worker when the application closes', async () => {
    const closing = await createTestApp(provider, {
      options: {
        outbox: { model: 'OutboxEntry', webhooks: [{ name: 'late', url: receiver.url, secret: SECRET }], ...FAST },
      },
    });
    try {
      await closing.app.close();
      await (closing.db.prisma as any).outboxEntry.create({
        data: { model: 'Tag', operation: 'create', rowKey: '{"id":1}', payload: {}, deliveredTo: [] },
      });
      await settled();
      // No worker took it: it still waits, unattempted.
      expect(
        await (closing.db.prisma as any).outboxEntry.findMany({ select: { status: true, attempts: true } }),
      ).toEqual([{ status: 'pending', attempts: 0 }]);
    } finally {
      await closing.db.drop();
    }
  });
});

describe.each(testProviders())('outbox worker (%s)', (provider) => {
  const receiver = new WebhookReceiver();
  const workers: OutboxWorker[] = [];
  let db: TestDatabase;
  let authorId: number;
  const outbox = () => (db.prisma as any).outboxEntry;
  const target = (name: string): WebhookTarget => ({ name, url: `${receiver.url}?target=${name}`, secret: SECRET });
  const settings = (overrides: Partial<OutboxSettings>): OutboxSettings => ({
    ...OUTBOX_DEFAULTS,
    ...FAST,
    model: db.modelMeta.models.OutboxEntry!,
    webhooks: [target('hook')],
    ...overrides,
  });
  const startWorker = (overrides: Partial<OutboxSettings> = {}, client: unknown = db.prisma) => {
    const worker = new OutboxWorker(client as never, settings(overrides), provider);
    workers.push(worker);
    worker.start();
    return worker;
  };
  /** A policy client that writes the outbox, as the module's requests do. */
  const client = () =>
    withPolicies(db.prisma, {
      modelMeta: db.modelMeta,
      context: {},
      beforeCommit: new OutboxWriter(db.modelMeta.models.OutboxEntry!).write,
    });
  const status = async () =>
    (await outbox().findMany({ orderBy: { id: 'asc' } })).map((entry: any) => ({
      status: entry.status,
      attempts: entry.attempts,
    }));

  beforeAll(async () => {
    await receiver.start();
    db = await createTestDatabase(provider);
    authorId = (await db.prisma.user.create({ data: { email: 'a@x.test', name: 'A' } })).id;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await outbox().deleteMany();
    receiver.received.length = 0;
    receiver.answer = () => 200;
  });
  afterAll(async () => {
    await db.drop();
    await receiver.stop();
  });

  it('rolls the write back when the outbox cannot be written', async () => {
    const failing = withPolicies(db.prisma, {
      modelMeta: db.modelMeta,
      context: {},
      beforeCommit: () => Promise.reject(new Error('outbox unavailable')),
    });
    await expect(failing.tag.create({ data: { name: 'not kept' } })).rejects.toThrow('outbox unavailable');
    expect(await db.prisma.tag.count({ where: { name: 'not kept' } })).toBe(0);
  });

  it('retries a failing webhook with backoff, then leaves the change dead; one UPDATE requeues it', async () => {
    receiver.answer = () => 500;
    const tag = await client().tag.create({ data: { name: 'refused' } });
    startWorker({ maxAttempts: 3 });
    await eventually(async () => expect(await status()).toEqual([{ status: 'dead', attempts: 3 }]), 10_000);
    const [entry] = await outbox().findMany();
    expect(entry.lastError).toBe('hook: HTTP 500');
    // Every attempt is the same delivery: one id, which receivers dedupe on.
    expect(receiver.deliveries().map(({ id, data }) => [id, data.id])).toEqual(
      Array(3).fill([String(entry.id), { id: tag.id }]),
    );
    receiver.answer = () => 200;
    // The requeue of docs/live.md.
    await db.prisma.$executeRawUnsafe(`UPDATE crud_outbox SET status = 'pending', attempts = 0 WHERE id = ${entry.id}`);
    await eventually(async () => expect(await status()).toEqual([{ status: 'delivered', attempts: 1 }]), 10_000);
  });

  it('keeps the order of a row while its earlier change is retried, and resends only to the failed webhook', async () => {
    const post = await db.prisma.post.create({ data: { title: 'ordered', authorId } });
    await client().post.update({ where: { id: post.id }, data: { title: 'first' } });
    await client().post.update({ where: { id: post.id }, data: { title: 'second' } });
    let flakyCalls = 0;
    receiver.answer = ({ url }) => (url.endsWith('flaky') && ++flakyCalls <= 2 ? 503 : 200);
    startWorker({ webhooks: [target('good'), target('flaky')] });
    await eventually(
      async () => expect(await status()).toEqual(Array(2).fill({ status: 'delivered', attempts: expect.any(Number) })),
      10_000,
    );
    const log = receiver.deliveries().map(({ url, data }) => `${url.split('=')[1]} ${data.after.title}`);
    expect(log.filter((line) => line.startsWith('good'))).toEqual(['good first', 'good second']);
    expect(log.filter((line) => line.startsWith('flaky'))).toEqual([
      'flaky first',
      'flaky first',
      'flaky first',
      'flaky second',
    ]);
    // The second change went nowhere before the first reached every webhook.
    expect(log.indexOf('good second')).toBeGreaterThan(log.lastIndexOf('flaky first'));
    expect((await status())[0]).toEqual({ status: 'delivered', attempts: 3 });
  });

  it('stops claiming when stopped, once the batch in hand is delivered', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    receiver.answer = async () => (await answered, 200);
    await client().tag.create({ data: { name: 'in hand' } });
    const worker = startWorker();
    await eventually(() => expect(receiver.received).toHaveLength(1));
    let stopped = false;
    const stopping = worker.stop().then(() => (stopped = true));
    await settled();
    expect(stopped).toBe(false);
    answer();
    await stopping;
    expect(await status()).toEqual([{ status: 'delivered', attempts: 1 }]);
    await client().tag.create({ data: { name: 'after the stop' } });
    await settled();
    expect(receiver.received).toHaveLength(1);
  });

  it('delivers a change committed by a process killed right after the commit', async () => {
    const down = new WebhookReceiver();
    await down.start();
    const unreachable = down.url;
    await down.stop();
    const { NODE_OPTIONS: _, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      env: { ...env, DATABASE_URL: db.url, WEBHOOK_URL: unreachable, TAG_NAME: 'survivor' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // The child compiles the module through tsx first: slow on a busy machine.
    await eventually(() => expect(output).toMatch(/committed \d+/), 60_000);
    child.kill('SIGKILL');
    await exited;
    const id = Number(/committed (\d+)/.exec(output)![1]);
    startWorker();
    await eventually(() => expect(receiver.deliveries().map(({ data }) => data.id)).toEqual([{ id }]), 10_000);
    // The receiver answers before the worker writes the outcome.
    await eventually(async () =>
      expect(await status()).toEqual([{ status: 'delivered', attempts: expect.any(Number) }]),
    );
  }, 90_000);

  itOn(
    provider,
    ['postgresql', 'mysql'],
    'one process writes SQLite: no second worker to share with',
  )('two workers share the outbox: every change delivered, none by both', async () => {
    const count = 60;
    await client().tag.createMany({ data: Array.from({ length: count }, (_, i) => ({ name: `shared ${i}` })) });
    const second = createSampleDatabase(db.url);
    try {
      startWorker({ batchSize: 5 });
      startWorker({ batchSize: 5 }, second.prisma);
      await eventually(
        async () => expect(await outbox().count({ where: { status: 'delivered' } })).toBe(count),
        20_000,
      );
      const ids = receiver.deliveries().map(({ id }) => id);
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
    } finally {
      await Promise.all(workers.splice(0).map((worker) => worker.stop()));
      await second.prisma.$disconnect();
    }
  });

  it('generated: random writes and failures, every change delivered in commit order per row', async () => {
    const posts = await Promise.all(
      [0, 1, 2].map((n) => db.prisma.post.create({ data: { title: `row ${n}`, authorId } })),
    );
    const write = fc.record({ row: fc.integer({ min: 0, max: 2 }), together: fc.boolean() });
    await fc.assert(
      fc.asyncProperty(
        fc.array(write, { minLength: 1, maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 10 }),
        async (writes, failures) => {
          await outbox().deleteMany();
          receiver.received.length = 0;
          let calls = 0;
          // The receiver fails the first requests as generated, then recovers.
          receiver.answer = () => (failures[calls++] ? 500 : 200);
          const expected: string[][] = [[], [], []];
          let step = 0;
          const update = async (tx: any, row: number) => {
            const title = `v${step++}`;
            await tx.post.update({ where: { id: posts[row]!.id }, data: { title } });
            expected[row]!.push(title);
          };
          for (const { row, together } of writes) {
            // Some writes share a transaction with a write of the next row.
            if (together)
              await client().$transaction(async (tx: any) => (await update(tx, row), await update(tx, (row + 1) % 3)));
            else await update(client(), row);
          }
          const worker = startWorker({ maxAttempts: 1000 });
          try {
            await eventually(
              async () => expect(await outbox().count({ where: { status: 'pending' } })).toBe(0),
              20_000,
            );
          } finally {
            await worker.stop();
          }
          const byRow = posts.map((post) => receiver.deliveries().filter(({ data }) => data.id.id === post.id));
          for (const [row, deliveries] of byRow.entries()) {
            // Retries repeat a change, never go back to an earlier one.
            const ids = deliveries.map(({ id }) => Number(id));
            expect(ids).toEqual([...ids].sort((a, b) => a - b));
            const titles = [...new Map(deliveries.map(({ id, data }) => [id, data.after.title])).values()];
            expect(titles).toEqual(expected[row]);
          }
        },
      ),
      { seed: 31, numRuns: 6 },
    );
  }, 120_000);
});
