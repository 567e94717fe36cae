import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got: its headers and its body as sent. */
export interface ReceivedWebhook {
  /** The path and query it was sent to (targets of one receiver differ by their query). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A local webhook receiver: records every POST, answers what `answer` says (200 unless told
 * otherwise), and can be stopped and started again on the same port (a receiver that is down).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (request: ReceivedWebhook) => number | Promise<number> = () => 200;
  private server?: http.Server;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hook`;
  }

  async start(): Promise<this> {
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = {
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.received.push(delivery);
        void Promise.resolve(this.answer(delivery)).then((status) => response.writeHead(status).end());
      });
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }

  /** The bodies received, parsed, with the id each came with. */
  deliveries(): { url: string; id: string; type: string; data: any }[] {
    return this.received.map(({ url, headers, body }) => ({
      url,
      id: String(headers['webhook-id']),
      ...JSON.parse(body),
    }));
  }
}
