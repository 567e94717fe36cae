// A server of live queries' event streams (docs/live.md) as a fake `fetch`, for the client's unit tests.

/** One connection of the fake server: what the client sent, and the event stream it answers on. */
export interface FakeConnection {
  url: string;
  headers: Headers;
  signal: AbortSignal;
  /** Writes to the event stream. */
  push(text: string): void;
  /** Ends the event stream, as a server closing it does. */
  end(): void;
}

/**
 * A `fetch` answering each request with the next answer of `answers` (a Response), or with an event
 * stream by default; `connections` records every request, with its stream's controls.
 */
export function fakeLiveServer(answers: (Response | Error | undefined)[] = []) {
  const connections: FakeConnection[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const signal = init!.signal!;
    signal.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    const encoder = new TextEncoder();
    connections.push({
      url: String(input),
      headers: new Headers(init?.headers),
      signal,
      push: (text) => controller.enqueue(encoder.encode(text)),
      end: () => controller.close(),
    });
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    return answer ?? new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  };
  return { fetch, connections };
}

/** One result event as the server writes it. */
export const resultEvent = (etag: string, body: unknown) => `id: ${etag}\ndata: ${JSON.stringify(body)}\n\n`;
