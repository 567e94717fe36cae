import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often a shutdown looks whether idle connections remain. */
const IDLE_POLL_MS = 10;

/**
 * The connections of the application's HTTP server, followed from its start (a `connection`
 * listener: nothing else changes until shutdown), so that a shutdown can keep its idle keep-alive
 * connections open rather than reset a request sent on one as the server closes.
 */
export class ServerConnections {
  private readonly sockets = new Set<Socket>();

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /**
   * Whether a connection has no answer under way: idle between requests, or opened with no request
   * yet. A client may send a request on it at any moment. (`_httpMessage` is the response Node's
   * server is writing on the socket, what its own `closeIdleConnections` reads.)
   */
  private get anyIdle(): boolean {
    for (const socket of this.sockets) if (!(socket as { _httpMessage?: unknown })._httpMessage) return true;
    return false;
  }

  /**
   * From now on, every answer closes its connection (`Connection: close`: the client's next request
   * opens another, to another server), and the server's closing of idle connections (Node's
   * `server.close()`, Fastify's `close()`) waits until `deadline`: until then they stay open, and a
   * request sent on one is answered.
   */
  closeAfterAnswers(deadline: number): void {
    const { server } = this;
    server.prependListener('request', (_request, response) => response.setHeader('Connection', 'close'));
    const closeIdle = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => {
      // Unreferenced: connections still open keep the process alive, the timer alone does not.
      setTimeout(closeIdle, deadline - Date.now()).unref();
    };
  }

  /** Resolves once no connection is idle (each closed after its answer), or at `deadline`. */
  idleClosed(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (!this.anyIdle || Date.now() >= deadline) resolve();
        else setTimeout(check, IDLE_POLL_MS);
      };
      check();
    });
  }
}
