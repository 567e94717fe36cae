import fc from 'fast-check';

import { type LiveStream, openLiveQuery } from './event-stream-client.js';
import { eventually } from './eventually.js';
import { applyWrite, type Caller, CALLERS, generatedWrites, headersOf, type usePolicyApp } from './policy-writes.js';
import { rpcPath } from './rpc-client.js';

const SEED = 3107;
const RUNS = 4;

/** Reads of posts that the changed rows decide (filters, pages, counts), beside the relation-filtered ones. */
export const ROW_DECIDED_READS = [
  rpcPath('post', 'findMany', { where: { published: false }, orderBy: { id: 'asc' }, select: { title: true } }),
  rpcPath('post', 'count', { where: { published: true } }),
  rpcPath('post', 'findMany', { orderBy: { id: 'desc' }, skip: 1, take: 2, select: { title: true } }),
  '/api/rest/post?filter[published]=true&sort=-id&page[size]=2&fields[post]=title',
];

/**
 * Policies by construction, for live queries: every caller subscribes to each of `paths`; after
 * every write of generated plans, each stream's last event is exactly what a GET of its caller
 * answers then, and no stream was ever sent anything else (each event is one of the answers its
 * caller's GETs gave between writes). Throws at the first stream that does not converge.
 */
export async function expectLiveConvergence(
  app: Pick<ReturnType<typeof usePolicyApp>, 'base' | 'rows' | 'request' | 'rpcWrite'>,
  paths: readonly string[],
): Promise<void> {
  const rows = await app.rows();
  const plans = fc.sample(generatedWrites, { seed: SEED, numRuns: RUNS });
  for (const plan of plans) {
    const subscriptions: { caller: Caller; path: string; stream: LiveStream; answers: Set<string> }[] = [];
    try {
      for (const caller of CALLERS) {
        for (const path of paths) {
          const stream = await openLiveQuery(`${app.base()}${path}`, headersOf(caller));
          expect(stream.status).toBe(200);
          subscriptions.push({ caller, path, stream, answers: new Set() });
        }
      }
      const converge = async () => {
        for (const subscription of subscriptions) {
          const answer = await app.request('GET', subscription.path, headersOf(subscription.caller));
          expect(answer.status).toBe(200);
          subscription.answers.add(answer.text);
          await eventually(() => expect(subscription.stream.events.at(-1)?.data).toBe(answer.text));
        }
      };
      await converge();
      for (const write of plan) {
        await applyWrite(write, rows, app.rpcWrite);
        await converge();
      }
      for (const subscription of subscriptions) {
        for (const event of subscription.stream.events) {
          expect(event.event).toBeUndefined();
          expect(subscription.answers).toContain(event.data);
        }
      }
    } finally {
      for (const subscription of subscriptions) subscription.stream.close();
    }
  }
}
