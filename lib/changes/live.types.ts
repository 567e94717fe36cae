import type { ChangeTransport } from './change-transport.js';

/**
 * Live queries (docs/live.md): a GET of either interface sent with `Accept: text/event-stream`
 * streams its answer, and a new one each time a commit changes it.
 */
export interface CrudApiLive {
  /**
   * Wait after a commit before re-running the queries it may have changed, in milliseconds: the
   * commits of that time share one re-run.
   * @defaultValue 25
   */
  debounce?: number;
  /**
   * Interval of the comments that keep idle streams open through proxies, in milliseconds.
   * @defaultValue 15000
   */
  heartbeat?: number;
  /**
   * The reconnection delay the stream advises clients (`retry:`), in milliseconds.
   * @defaultValue 1000
   */
  retry?: number;
  /**
   * Most live queries open on one connection (HTTP/2 multiplexes them).
   * @defaultValue 16
   */
  maxPerConnection?: number;
  /**
   * Most live queries open for one caller (`caller`), on every connection.
   * @defaultValue 64
   */
  maxPerCaller?: number;
  /**
   * Who a request's caller is, for `maxPerCaller`.
   * @defaultValue the Authorization header, else the remote address
   */
  // The platform's request: the application's guards decide what is on it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  caller?: (request: any) => string;
  /**
   * Most re-runs per second on this instance: beyond it, re-runs wait for the next second (a
   * re-run always answers the latest state, so waiting loses no change).
   * @defaultValue 200
   */
  maxRerunsPerSecond?: number;
  /**
   * Most bytes a stream may hold unsent for a slow client: beyond it the stream is closed (the
   * client reconnects and resumes with `Last-Event-ID`).
   * @defaultValue 1048576 (1 MiB)
   */
  maxBufferedBytes?: number;
  /**
   * Carries change notices to the application's other instances (docs/live.md#across-instances).
   * @defaultValue this instance only
   */
  transport?: ChangeTransport;
}

export type ResolvedLive = Required<Omit<CrudApiLive, 'transport'>> & Pick<CrudApiLive, 'transport'>;

export const LIVE_DEFAULTS: Omit<ResolvedLive, 'transport'> = {
  debounce: 25,
  heartbeat: 15_000,
  retry: 1000,
  maxPerConnection: 16,
  maxPerCaller: 64,
  caller: (request: { headers: Record<string, unknown>; socket?: { remoteAddress?: string } }) =>
    String(request.headers.authorization ?? request.socket?.remoteAddress ?? ''),
  maxRerunsPerSecond: 200,
  maxBufferedBytes: 1 << 20,
};
