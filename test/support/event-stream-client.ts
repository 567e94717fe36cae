import { type IncomingMessage, request as httpRequest } from 'node:http';

import { eventually } from './eventually.js';

/** One Server-Sent Event as a client reads it: comments are counted apart. */
export interface StreamEvent {
  id?: string;
  event?: string;
  data: string;
}

/** An open live query: the events read so far, as they arrive. */
export interface LiveStream {
  status: number;
  headers: IncomingMessage['headers'];
  events: StreamEvent[];
  comments: number;
  /** The `retry:` the server advised. */
  retry?: number;
  /** Whether the server ended the stream. */
  ended: boolean;
  /** The data of the result events (no `event:` field), parsed. */
  results(): unknown[];
  /** Waits until `count` result events arrived; answers the last one's data. */
  nth(count: number, timeout?: number): Promise<unknown>;
  close(): void;
}

/**
 * Opens a live query over a connection of its own (as a browser tab would), and reads its events
 * in the background. An answer that is not an event stream is read whole: `status` and `body`
 * tell what the server refused.
 */
export async function openLiveQuery(
  url: string,
  headers: Record<string, string> = {},
): Promise<LiveStream & { body?: unknown }> {
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const sent = httpRequest(url, { headers: { Accept: 'text/event-stream', ...headers }, agent: false }, resolve);
    sent.on('error', reject);
    sent.end();
  });
  const stream: LiveStream & { body?: unknown } = {
    status: response.statusCode!,
    headers: response.headers,
    events: [],
    comments: 0,
    ended: false,
    results: () => stream.events.filter((event) => event.event === undefined).map((event) => JSON.parse(event.data)),
    nth: async (count, timeout) => {
      await eventually(() => expect(stream.results().length).toBeGreaterThanOrEqual(count), timeout);
      return stream.results()[count - 1];
    },
    close: () => response.destroy(),
  };
  if (!response.headers['content-type']?.startsWith('text/event-stream')) {
    let text = '';
    for await (const chunk of response) text += chunk;
    stream.body = JSON.parse(text);
    stream.ended = true;
    return stream;
  }
  void read(response, stream);
  return stream;
}

async function read(body: IncomingMessage, stream: LiveStream): Promise<void> {
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for await (const chunk of body) {
      buffered += decoder.decode(chunk as Buffer, { stream: true });
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        parseBlock(buffered.slice(0, end), stream);
        buffered = buffered.slice(end + 2);
      }
    }
  } catch {
    // Closed by the test, or the server closed the connection.
  }
  stream.ended = true;
}

function parseBlock(block: string, stream: LiveStream): void {
  const event: StreamEvent = { data: '' };
  let hasData = false;
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) stream.comments++;
    else if (line.startsWith('retry: ')) stream.retry = Number(line.slice(7));
    else if (line.startsWith('id: ')) event.id = line.slice(4);
    else if (line.startsWith('event: ')) event.event = line.slice(7);
    else if (line.startsWith('data: ')) {
      event.data += line.slice(6);
      hasData = true;
    }
  }
  if (hasData) stream.events.push(event);
}
