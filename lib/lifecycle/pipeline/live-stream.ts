import { randomUUID } from 'node:crypto';

import { acceptsEventStream } from '../../changes/event-stream.js';
import type { LiveQueries } from '../../changes/live-queries.js';
import { ReadFootprint } from '../../changes/read-footprint.js';
import { type PrismaClientResolver, recordQueries } from '../../data/prisma-client.resolver.js';
import { bodyBytes, nodeResponseOf } from '../../shared/api-response.js';
import { runInRequest } from '../../telemetry/request-telemetry.js';
import { REQUEST_ID_HEADER } from '../../telemetry/telemetry.constants.js';
import type { Exchange, Stage } from './exchange.js';

/** Whether the request opens a live query: a GET asking for an event stream, with live queries on. */
const opensLiveQuery = (live: LiveQueries, { request }: Exchange): boolean =>
  live.settings !== undefined && request.method === 'GET' && acceptsEventStream(request.headers.accept);

/**
 * Where a live query (docs/live.md) leaves the pipeline: it counts against the limits, runs as
 * the GET it streams (negotiated as the interface's own media type) with a client that notes the
 * queries it sends (`ReadFootprint`), and its stream goes to `LiveQueries`, which runs it again after relevant
 * commits. A query that cannot start answers as the GET would have failed. Any other request goes on.
 */
export function liveStream(live: LiveQueries, clients: PrismaClientResolver): Stage {
  return async (exchange, next) => {
    if (!opensLiveQuery(live, exchange)) return next();
    const { raw, scope, run, contentType, behaviour } = exchange;
    const call = exchange.call!;
    const caller = live.settings!.caller(raw);
    const connection: object = raw.socket ?? raw;
    live.reserve(caller, connection);
    try {
      const request = { ...exchange.request, headers: { ...raw.headers, accept: contentType } };
      // Each run notes its queries in the footprint it is given.
      let reads = new ReadFootprint();
      recordQueries(request, { note: (...query) => reads.note(...query) });
      const query = `${scope.interface} ${request.path}?${request.query}\n${raw.headers.prefer ?? ''}\n`;
      // Subscribers the policies cannot tell apart share re-runs; decisions JSON cannot write share with none.
      const alone = `request ${randomUUID()}`;
      const shareKey = async () => query + ((await clients.decisionKeyOf(request)) ?? alone);
      const once = async (into: ReadFootprint) => {
        reads = into;
        try {
          return bodyBytes((await run(request)).body) ?? Buffer.alloc(0);
        } finally {
          // An idle stream keeps no client (nor its policies) between runs.
          clients.forget(request);
        }
      };
      const subscription = {
        shareKey: await shareKey(),
        reads,
        // Each re-run asks the application for the caller's client and context anew.
        judge: () => {
          clients.forget(request);
          return shareKey();
        },
        run: once,
        renderError: (error: unknown) => behaviour.renderError(error, request, call),
      };
      const first = await runInRequest(call, () => once(reads));
      live.open({ ...subscription, caller, connection }, nodeResponseOf(exchange.response), {
        first,
        lastEventId: [raw.headers['last-event-id']].flat()[0],
        headers: { [REQUEST_ID_HEADER]: call.id },
      });
    } catch (error) {
      live.release(caller, connection);
      throw error;
    }
    return { status: 200 };
  };
}
