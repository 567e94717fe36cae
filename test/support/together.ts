import { Agent, request as httpRequest } from 'node:http';

/** One GET of a batch sent together. */
export interface TogetherRequest {
  path: string;
  headers?: Record<string, string>;
  /** The client's own address (any of 127.0.0.0/8 on Linux). */
  from?: string;
}

export interface TogetherAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * GETs to a listening app at `base()`, sent together: each batch goes out once first, so that
 * every request of the answered one is written in the same turn, on a connection of its own
 * already open, and reaches the server in one turn of its event loop. `after` runs between the
 * two (to reset what the test counts). Call it in a `describe`: it closes its connections after all.
 */
export function sendTogether(base: () => string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  afterAll(() => agent.destroy());
  const get = ({ path, headers, from }: TogetherRequest) =>
    new Promise<TogetherAnswer>((resolve, reject) => {
      const sent = httpRequest(`${base()}${path}`, { agent, localAddress: from, headers });
      sent.on('error', reject);
      sent.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString() }),
        );
      });
      sent.end();
    });
  return async (requests: TogetherRequest[], after?: () => void): Promise<TogetherAnswer[]> => {
    await Promise.all(requests.map(get));
    after?.();
    return Promise.all(requests.map(get));
  };
}
