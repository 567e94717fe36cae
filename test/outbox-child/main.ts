// A process that commits one write with the outbox on, its worker unable to reach the webhook, and
// says so on stdout: the test kills it (SIGKILL) then, and delivers the change from another worker.
import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { OUTBOX_DEFAULTS } from '../../lib/changes/outbox.types.js';
import { OutboxWorker } from '../../lib/changes/outbox-worker.js';
import { OutboxWriter } from '../../lib/changes/outbox-writer.js';
import { withPolicies } from '../../lib/index.js';

const { prisma, modelMeta } = createSampleDatabase(process.env.DATABASE_URL!);
const model = modelMeta.models.OutboxEntry!;
const writer = new OutboxWriter(model);
const worker = new OutboxWorker(
  prisma as never,
  {
    ...OUTBOX_DEFAULTS,
    model,
    webhooks: [{ name: 'hook', url: process.env.WEBHOOK_URL!, secret: 'child' }],
    pollInterval: 10,
    lease: 200,
    // Its failed attempts leave the change due soon for the test's worker.
    backoffBase: 10,
    backoffCap: 50,
  },
  modelMeta.provider,
);
worker.start();
const client = withPolicies(prisma, { modelMeta, context: {}, beforeCommit: writer.write });
const tag = await client.tag.create({ data: { name: process.env.TAG_NAME! } });
process.stdout.write(`committed ${tag.id}\n`);
// Runs until killed.
setInterval(() => undefined, 1000);
