import fc from 'fast-check';

import { type LiveStream, openLiveQuery } from '../support/event-stream-client.js';
import { eventually } from '../support/eventually.js';
import {
  applyWrite,
  type Caller,
  CALLERS,
  generatedWrites,
  headersOf,
  RELATION_HIDDEN_READS,
  usePolicyApp,
} from '../support/policy-writes.js';
import { rpcPath } from '../support/rpc-client.js';
import { testProviders } from '../support/test-database.js';

const SEED = 3107;
const RUNS = 4;

/** Reads of posts that the changed rows decide (filters, pages, counts), beside the relation-filtered ones. */
const ROW_DECIDED_READS = [
  rpcPath('post', 'findMany', { where: { published: false }, orderBy: { id: 'asc' }, select: { title: true } }),
  rpcPath('post', 'count', { where: { published: true } }),
  rpcPath('post', 'findMany', { orderBy: { id: 'desc' }, skip: 1, take: 2, select: { title: true } }),
  '/api/rest/post?filter[published]=true&sort=-id&page[size]=2&fields[post]=title',
];

/**
 * Commits told by their models alone (no listener: nothing is captured), and as captured rows (an
 * `onChange` listener), which live queries decide from in memory.
 */
const CHANGES = [
  ['models', {}],
  ['rows', { onChange: () => undefined }],
] as const;

/**
 * Policies by construction: subscribers under relation-based read rules get, after every commit,
 * exactly what a GET of theirs answers then, and never anything else (each event is one of the
 * answers their GETs gave between commits).
 */
describe.each(
  testProviders().flatMap((provider) => CHANGES.map(([name, options]) => [provider, name, options] as const)),
)('live queries under relation-based policies (%s, changes as %s)', (provider, _changes, options) => {
  const {
    base,
    rows: writtenRows,
    request,
    rpcWrite,
  } = usePolicyApp(provider, { live: { debounce: 5, maxPerCaller: 100 }, ...options });

  it('sends every subscriber exactly its own answers, whatever is written', async () => {
    const rows = await writtenRows();
    const plans = fc.sample(generatedWrites, { seed: SEED, numRuns: RUNS });
    for (const plan of plans) {
      const subscriptions: { caller: Caller; path: string; stream: LiveStream; answers: Set<string> }[] = [];
      for (const caller of CALLERS) {
        for (const path of [...RELATION_HIDDEN_READS, ...ROW_DECIDED_READS]) {
          const stream = await openLiveQuery(`${base()}${path}`, headersOf(caller));
          expect(stream.status).toBe(200);
          subscriptions.push({ caller, path, stream, answers: new Set() });
        }
      }
      const converge = async () => {
        for (const subscription of subscriptions) {
          const answer = await request('GET', subscription.path, headersOf(subscription.caller));
          expect(answer.status).toBe(200);
          subscription.answers.add(answer.text);
          await eventually(() => expect(subscription.stream.events.at(-1)?.data).toBe(answer.text));
        }
      };
      await converge();
      for (const write of plan) {
        await applyWrite(write, rows, rpcWrite);
        await converge();
      }
      for (const subscription of subscriptions) {
        for (const event of subscription.stream.events) {
          expect(event.event).toBeUndefined();
          expect(subscription.answers).toContain(event.data);
        }
        subscription.stream.close();
      }
    }
    // Dozens of generated writes, each awaited by every stream: a bound against a hang, not a timing.
  }, 120_000);
});
