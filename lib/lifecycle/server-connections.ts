import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How often a shutdown looks whether connections remain. */
const POLL_MS = 10;

/**
 * The connections of the application's HTTP server, followed from its start (a `connection`
 * listener: nothing else changes until shutdown), so that a shutdown can keep its idle keep-alive
 * connections open rather than reset a request sent on one as the server closes.
 */
export class ServerConnections {
  /** One per server: every module instance of an application shares its server's. */
  private static readonly servers = new WeakMap<Server, ServerConnections>();

  private readonly sockets = new Set<Socket>();
  private closing = false;

  static of(server: Server): ServerConnections {
    let connections = ServerConnections.servers.get(server);
    if (!connections) ServerConnections.servers.set(server, (connections = new ServerConnections(server)));
    return connections;
  }

  constructor(private readonly server: Server) {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  /**
   * From now on, every answer closes its connection (`Connection: close`: the client's next request
   * opens another, to another server), and the server's closing of idle connections (Node's
   * `server.close()`, Fastify's `close()`) waits until `deadline`: until then they stay open, and a
   * request sent on one is answered.
   */
  closeAfterAnswers(deadline: number): void {
    // Once per server, whichever module instance closes first: its deadline is the earliest.
    if (this.closing) return;
    this.closing = true;
    const { server } = this;
    server.prependListener('request', (_request, response) => response.setHeader('Connection', 'close'));
    const closeIdle = server.closeIdleConnections.bind(server);
    server.closeIdleConnections = () => {
      // Unreferenced: connections still open keep the process alive, the timer alone does not.
      setTimeout(closeIdle, deadline - Date.now()).unref();
    };
  }

  /**
   * Resolves once no connection is left, or at `deadline`. Since `closeAfterAnswers`, each closes
   * after its next answer; one that answers a request taken before keeps the connection open, and
   * the client's next request on it is answered there. Not sooner: a connection that is still
   * answering may stay open after its answer, to be sent a request once the server no longer
   * answers the instance's routes.
   */
  closed(deadline: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.sockets.size === 0 || Date.now() >= deadline) resolve();
        else setTimeout(check, POLL_MS);
      };
      check();
    });
  }
}
