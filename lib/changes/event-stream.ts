import type { ServerResponse } from 'node:http';

/** The media type of Server-Sent Events (HTML Living Standard, §9.2). */
export const EVENT_STREAM_MEDIA_TYPE = 'text/event-stream';

/** Whether an `Accept` field asks for an event stream (a live query). */
export function acceptsEventStream(accept: string | string[] | undefined): boolean {
  if (accept === undefined) return false;
  return [accept]
    .flat()
    .join(',')
    .split(',')
    .some((range) => {
      const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
      return type === EVENT_STREAM_MEDIA_TYPE && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
    });
}

/**
 * One event's bytes: its data (an answer's JSON, one line: JSON escapes line breaks), with its id
 * (the answer's ETag) or its type (`error`: an error event leaves the client's last event id as it
 * was). Made once, written to every subscriber it is for.
 */
export function eventBytes(data: Buffer, { id, event }: { id?: string; event?: string }): Buffer {
  const head = `${event === undefined ? '' : `event: ${event}\n`}${id === undefined ? '' : `id: ${id}\n`}data: `;
  return Buffer.concat([Buffer.from(head), data, EVENT_END]);
}

const EVENT_END = Buffer.from('\n\n');
const COMMENT = Buffer.from(':\n\n');

/** The open stream of one subscriber. */
export interface EventStream {
  /** Sends one event (`eventBytes`). */
  send(event: Buffer): void;
  /** Sends an `error` event with the interface's error body, then ends the stream. */
  fail(body: Buffer): void;
  /** A comment that keeps proxies from closing an idle stream. */
  comment(): void;
  end(): void;
}

/**
 * Starts an event stream on a Node response (Express's, or Fastify's raw one once hijacked):
 * headers that keep every hop from caching or buffering it, and the reconnection delay. A client
 * too slow to read (`maxBufferedBytes` unsent) is disconnected rather than buffered without bound;
 * `onClose` runs once, however the stream ends.
 */
export function openEventStream(
  response: ServerResponse,
  { retry, maxBufferedBytes }: { retry: number; maxBufferedBytes: number },
  headers: Record<string, string>,
  onClose: () => void,
): EventStream {
  response.writeHead(200, {
    ...headers,
    'Content-Type': EVENT_STREAM_MEDIA_TYPE,
    'Cache-Control': 'no-store',
    // nginx buffers proxied answers unless told not to.
    'X-Accel-Buffering': 'no',
  });
  response.write(`retry: ${retry}\n\n`);
  const closed = () => {
    // The client went away: Node's server keeps a half-closed socket open until told otherwise.
    if (!response.writableEnded) response.destroy();
    onClose();
  };
  // A client gone while its first answer was made has closed already: its stream ends at once.
  if (response.socket === null || response.socket.destroyed) setImmediate(closed);
  else response.once('close', closed);
  const write = (bytes: Buffer) => {
    if (response.writableEnded || response.destroyed) return;
    response.write(bytes);
    if (response.writableLength > maxBufferedBytes) response.destroy();
  };
  return {
    send: write,
    fail: (body) => {
      write(eventBytes(body, { event: 'error' }));
      response.end();
    },
    comment: () => write(COMMENT),
    end: () => response.end(),
  };
}
