import { createParser, type EventSourceMessage, type EventSourceParser } from 'eventsource-parser';

import { resolveHeaders } from './headers.js';
import type { RpcClientOptions } from './rpc-client.types.js';

/** A failure of a live query: a subscription the server refused, an error it reported, a lost connection. */
export class LiveQueryError extends Error {
  override readonly name = 'LiveQueryError';

  constructor(
    /** The status of an answer that refused the subscription; 0 when there is none (an error event, a lost connection). */
    readonly status: number,
    /** The error body the server sent (the interface's JSON error), as text; empty when it sent none. */
    readonly body: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface LiveQueryOptions {
  /** A `fetch` to send requests with (defaults to the global one). */
  fetch?: typeof globalThis.fetch;
  /** Headers of each connection, or a function that answers them per connection (an access token...). */
  headers?: RpcClientOptions['headers'];
  /** Stops the live query: the connection is closed and no reconnection is tried. */
  signal?: AbortSignal;
  /** Each result: the body the GET would answer, parsed, and its entity tag. */
  onResult: (body: unknown, etag: string | undefined) => void;
  /** Each failure; `willRetry` says whether a reconnection follows or the live query has ended. */
  onError?: (error: LiveQueryError, willRetry: boolean) => void;
  /** A connection opened again after one was lost: what was received may be stale, a caller can refetch. */
  onReconnect?: () => void;
  /**
   * How long to wait before reconnecting after `failures` failed tries in a row, given the delay
   * the server asked for (`retry:`). Defaults to `backoffDelay`: doubling, capped, with jitter.
   */
  retryDelay?: (failures: number, serverDelay: number) => number;
  /**
   * How long a stream may stay silent before it is taken as lost and opened again, in
   * milliseconds: the server sends a heartbeat comment every `live.heartbeat`, so a longer silence
   * is a connection that died without closing (a sleeping laptop, a NAT that forgot it). Default
   * 60000; 0 waits forever.
   */
  idleTimeout?: number;
}

/** The delay before the first reconnection until the server sends its own (`retry:`). */
const DEFAULT_SERVER_DELAY_MS = 1000;
/** The longest silence of a stream taken for a live connection: a few of the server's default heartbeats. */
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** The longest wait between reconnections: a server that is back is found again within it. */
const MAX_RETRY_DELAY_MS = 30_000;

/**
 * The delay before the reconnection after `failures` failed tries: the server's delay doubled per
 * failure up to `max`, then a random share of its upper half, so that the clients a restart cut off
 * do not all come back at once.
 */
export function backoffDelay(
  failures: number,
  serverDelay: number,
  max = MAX_RETRY_DELAY_MS,
  random: () => number = Math.random,
): number {
  const capped = Math.min(max, serverDelay * 2 ** Math.max(0, failures - 1));
  return capped / 2 + (random() * capped) / 2;
}

/** Statuses worth retrying: the server was busy, at its subscription limit or failing; other refusals stay. */
const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** The `Retry-After` of an answer in milliseconds, when it gives seconds. */
function retryAfterMs(res: Response): number | undefined {
  const seconds = Number(res.headers.get('Retry-After') ?? NaN);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** How one connection ended, unless aborted: whether to connect again, and after what. */
interface Outcome {
  retry: boolean;
  /** A result came: the next failure starts the backoff over. */
  received?: boolean;
  error?: LiveQueryError;
  /** The least wait the server asked for (`Retry-After`). */
  retryAfter?: number;
}

/** Per live query: what carries over from one connection to the next. */
interface LiveState {
  lastEventId?: string;
  serverDelay: number;
  opened: boolean;
}

/** What of a browser's globals a wait listens to (Node has none): the connection coming back. */
const browser = globalThis as {
  addEventListener?: (type: 'online', listener: () => void) => void;
  removeEventListener?: (type: 'online', listener: () => void) => void;
};

/** Waits `ms`, or less: until `signal` aborts, or a browser's connection comes back (it reconnects at once then). */
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      browser.removeEventListener?.('online', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
    browser.addEventListener?.('online', done);
  });

/** A read of the stream, failing once the stream was silent for `idleTimeout` ms (0: never). */
function readWithin<T>(read: Promise<T>, idleTimeout: number): Promise<T> {
  if (!(idleTimeout > 0)) return read;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silence = new Promise<never>((_, reject) => {
    const message = `The live query's stream was silent for ${idleTimeout} ms.`;
    timer = setTimeout(() => reject(new LiveQueryError(0, '', message)), idleTimeout);
  });
  return Promise.race([read, silence]).finally(() => clearTimeout(timer));
}

/** Reads one event stream to its end, feeding it to `parser`. */
async function readEvents(body: ReadableStream<Uint8Array>, parser: EventSourceParser, idleTimeout: number) {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await readWithin(reader.read(), idleTimeout);
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch (error) {
    // Closes the connection whatever failed (the network, malformed data, silence), so that none stays open behind a retry.
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}

/** An event's data as JSON; malformed data is the server's failure, reported as a lost connection. */
function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (cause) {
    throw new LiveQueryError(0, '', 'The live query received data that is not JSON.', { cause });
  }
}

/** The error of a connection that failed (the network, malformed data): a reconnection follows. */
function lostConnection(cause: unknown): LiveQueryError {
  if (cause instanceof LiveQueryError) return cause;
  return new LiveQueryError(0, '', `The live query lost its connection: ${(cause as Error)?.message}`, { cause });
}

/** Why an answer opens no event stream, as the connection's outcome; undefined when it does open one. */
async function refusal(res: Response, url: string): Promise<Outcome | undefined> {
  if (!res.ok) {
    const body = await res.text();
    const error = new LiveQueryError(res.status, body, body || `HTTP ${res.status}`);
    return { retry: retryable(res.status), error, retryAfter: retryAfterMs(res) };
  }
  if (res.body && res.headers.get('Content-Type')?.startsWith('text/event-stream')) return undefined;
  await res.body?.cancel();
  const message = `${url} answered no event stream: does the server serve live queries?`;
  return { retry: false, error: new LiveQueryError(res.status, '', message) };
}

/** Opens one connection and follows it until it ends; undefined once `signal` aborted it. */
async function connect(
  url: string,
  options: LiveQueryOptions,
  state: LiveState,
  signal: AbortSignal,
): Promise<Outcome | undefined> {
  let received = false;
  const onEvent = (event: EventSourceMessage) => {
    if (event.event === 'error') {
      // The server closes the stream after it: a reconnection follows.
      options.onError?.(new LiveQueryError(0, event.data, event.data || 'The live query failed.'), true);
    } else if (event.event === undefined) {
      // Other event types are left to later versions of the protocol.
      const body = parseData(event.data);
      if (event.id !== undefined) state.lastEventId = event.id;
      received = true;
      options.onResult(body, event.id);
    }
  };
  try {
    const headers = await resolveHeaders(options.headers);
    headers.set('Accept', 'text/event-stream');
    if (state.lastEventId !== undefined) headers.set('Last-Event-ID', state.lastEventId);
    const res = await (options.fetch ?? globalThis.fetch)(url, { method: 'GET', headers, signal });
    const refused = await refusal(res, url);
    if (refused) return refused;
    if (state.opened) options.onReconnect?.();
    state.opened = true;
    const parser = createParser({ onEvent, onRetry: (ms) => (state.serverDelay = ms) });
    await readEvents(res.body!, parser, options.idleTimeout ?? DEFAULT_IDLE_TIMEOUT_MS);
    return { retry: true, received };
  } catch (cause) {
    return signal.aborted ? undefined : { retry: true, received, error: lostConnection(cause) };
  }
}

/**
 * Follows the answer of a GET URL of the module (a REST or RPC read) from its live stream
 * (`Accept: text/event-stream`, docs/live.md): `onResult` receives the answer at once, then each
 * time it changes. A lost connection is opened again, after a delay that grows with each failure in
 * a row, sending the last result's tag as `Last-Event-ID` so that the server only resends a changed
 * answer. A refusal other than 408, 429 or 5xx (a 403, a 404...) ends it, as does `signal`.
 * Resolves once it ended; it never rejects: failures go to `onError`.
 */
export async function liveQuery(url: string, options: LiveQueryOptions): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  if (options.signal?.aborted) return;
  options.signal?.addEventListener('abort', stop);
  const state: LiveState = { serverDelay: DEFAULT_SERVER_DELAY_MS, opened: false };
  const retryDelay = options.retryDelay ?? backoffDelay;
  let failures = 0;
  try {
    for (;;) {
      const outcome = await connect(url, options, state, controller.signal);
      if (!outcome || controller.signal.aborted) return;
      failures = outcome.received ? 1 : failures + 1;
      if (outcome.error) options.onError?.(outcome.error, outcome.retry);
      if (!outcome.retry) return;
      await sleep(Math.max(outcome.retryAfter ?? 0, retryDelay(failures, state.serverDelay)), controller.signal);
      if (controller.signal.aborted) return;
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
  }
}
