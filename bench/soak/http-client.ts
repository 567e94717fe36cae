import http from 'node:http';

export interface HttpAnswer {
  status: number;
  body: string;
}

/** A keep-alive HTTP/1.1 client for one origin on loopback, `connections` sockets at most. */
export class HttpClient {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(origin: string, connections: number) {
    this.url = new URL(origin);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  }

  request(method: string, path: string, body?: string, contentType?: string, timeoutMs = 30_000): Promise<HttpAnswer> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (body !== undefined) {
        headers['content-type'] = contentType ?? 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const request = http.request(
        { agent: this.agent, host: this.url.hostname, port: this.url.port, method, path, headers, timeout: timeoutMs },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
