import { LiveQueries } from '../../lib/changes/live-queries.js';
import { type LiveStream, openLiveQuery } from '../support/event-stream-client.js';
import { eventually, settled } from '../support/eventually.js';
import { CALLERS, headersOf, usePolicyApp } from '../support/policy-writes.js';
import { rpcPath } from '../support/rpc-client.js';
import { testProviders } from '../support/test-database.js';

/**
 * Reads whose answers depend only on the Post rows their filter (and the caller's policy) matches:
 * on numbers, which every database compares alike (MySQL's strings are not decided).
 */
const FILTERED = [
  rpcPath('post', 'findMany', { where: { rating: 4.5 }, orderBy: { id: 'asc' }, select: { title: true } }),
  rpcPath('post', 'count', { where: { rating: { gte: 4 } } }),
  '/api/rest/post?filter[rating]=4.5&sort=id&fields[post]=title,published',
];
/** A read the comment policy filters through the post relation: no changed row decides it. */
const RELATION_FILTERED = rpcPath('comment', 'count', {});

/**
 * With changes captured (an `onChange` listener), live queries decide from the changed rows which
 * subscriptions a commit concerns: those whose filters match neither the row before nor after
 * stay as they are, without a re-run; those that cannot be decided re-run as before.
 */
describe.each(testProviders())('live queries deciding from the changed rows (%s)', (provider) => {
  const { t, base, rpcWrite, request } = usePolicyApp(provider, {
    live: { debounce: 5, maxPerCaller: 100 },
    onChange: () => undefined,
  });
  const streams: LiveStream[] = [];
  afterAll(() => streams.forEach((stream) => stream.close()));

  it('re-runs none of the filtered subscriptions for rows outside their filters, and the undecidable ones', async () => {
    const queries = t.app.get(LiveQueries);
    const subscribed: { path: string; headers: Record<string, string>; stream: LiveStream }[] = [];
    for (const caller of CALLERS)
      for (const path of [...FILTERED, RELATION_FILTERED]) {
        const stream = await openLiveQuery(`${base()}${path}`, headersOf(caller));
        expect(stream.status).toBe(200);
        streams.push(stream);
        subscribed.push({ path, headers: headersOf(caller), stream });
      }
    await Promise.all(subscribed.map(({ stream }) => stream.nth(1)));
    const rerunsAfter = async (write: () => Promise<unknown>) => {
      const before = queries.reruns;
      await write();
      await settled();
      return queries.reruns - before;
    };

    // A post elsewhere, then changed while it stays elsewhere: only the three relation-filtered re-run.
    const authorId = (await t.db.prisma.user.findFirst())!.id;
    let elsewhere = { id: 0 };
    const create = async () => {
      elsewhere = await rpcWrite('post/create', { data: { title: 'elsewhere', published: true, authorId } });
    };
    expect(await rerunsAfter(create)).toBe(CALLERS.length);
    expect(
      await rerunsAfter(() => rpcWrite('post/update', { where: { id: elsewhere.id }, data: { content: 'more' } })),
    ).toBe(CALLERS.length);
    // Into the filters: every subscription re-runs, and follows its GET.
    expect(
      await rerunsAfter(() => rpcWrite('post/update', { where: { id: elsewhere.id }, data: { rating: 4.5 } })),
    ).toBe(CALLERS.length * (FILTERED.length + 1));
    // Out of them again: the row matched before, so they re-run.
    expect(await rerunsAfter(() => rpcWrite('post/update', { where: { id: elsewhere.id }, data: { rating: 1 } }))).toBe(
      CALLERS.length * (FILTERED.length + 1),
    );
    for (const { path, headers, stream } of subscribed) {
      const answer = await request('GET', path, headers);
      await eventually(() => expect(stream.events.at(-1)?.data).toBe(answer.text));
    }
  });
});
