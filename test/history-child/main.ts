// A process that writes posts with their history in a loop, two rows per transaction, and says so
// on stdout: the test kills it (SIGKILL) mid-loop, then checks that history and data agree.
import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { withPolicies } from '../../lib/index.js';

const { prisma, modelMeta } = createSampleDatabase(process.env.DATABASE_URL!);
const history = { model: modelMeta.models.HistoryEntry! };
const client = withPolicies(prisma, { modelMeta, rules: { Post: { history: true } }, history, context: {} }) as any;
const authorId = Number(process.env.AUTHOR_ID);
const [first, second] = await Promise.all([
  client.post.create({ data: { title: 'a', authorId } }),
  client.post.create({ data: { title: 'b', authorId } }),
]);
process.stdout.write('started\n');
for (let step = 1; ; step++) {
  await client.$transaction(async (tx: any) => {
    await tx.post.update({ where: { id: first.id }, data: { rating: step } });
    await tx.post.create({ data: { title: `c${step}`, authorId } });
    await tx.post.update({ where: { id: second.id }, data: { rating: step } });
  });
  process.stdout.write(`committed ${step}\n`);
}
