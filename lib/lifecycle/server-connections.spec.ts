import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

import { ServerConnections } from './server-connections.js';

/** A server answering 200 `ok`, with its connections followed, and a keep-alive client of it. */
async function serverAndClient() {
  const server = http.createServer((_request, response) => response.end('ok'));
  const connections = ServerConnections.of(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const { port } = server.address() as AddressInfo;
  /** A GET on the agent's connection: its answer and the client's socket. */
  const get = () =>
    new Promise<{ response: http.IncomingMessage; socket: Socket }>((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, agent }, (response) =>
        response.resume().on('end', () => resolve({ response, socket: request.socket! })),
      );
    });
  const stop = () => {
    agent.destroy();
    server.closeAllConnections();
    server.close();
  };
  return { server, connections, get, stop };
}

describe('ServerConnections', () => {
  it('is one per server, so that module instances sharing a server patch its closing once', () => {
    const server = http.createServer();
    const connections = ServerConnections.of(server);
    expect(ServerConnections.of(server)).toBe(connections);
    connections.closeAfterAnswers(Date.now() + 1000);
    connections.closeAfterAnswers(Date.now() + 1000);
    expect(server.listeners('request')).toHaveLength(1);
    expect(ServerConnections.of(http.createServer())).not.toBe(connections);
  });

  it('keeps an idle keep-alive connection open through server.close() until a request closes it', async () => {
    const { server, connections, get, stop } = await serverAndClient();
    try {
      const { response: before } = await get();
      expect(before.headers.connection).toBe('keep-alive');
      const deadline = Date.now() + 10_000;
      connections.closeAfterAnswers(deadline);
      let idleClosed = false;
      const closed = connections.closed(deadline).then(() => (idleClosed = true));
      server.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(idleClosed).toBe(false);

      // The request on the idle connection is answered, and its connection closes after the answer.
      const { response: after } = await get();
      expect([after.statusCode, after.headers.connection]).toEqual([200, 'close']);
      await closed;
      expect(Date.now()).toBeLessThan(deadline);
    } finally {
      stop();
    }
  });

  it('closes the idle connections left at the deadline', async () => {
    const { server, connections, get, stop } = await serverAndClient();
    try {
      const { socket } = await get();
      const socketClosed = new Promise((resolve) => socket.once('close', resolve));
      const deadline = Date.now() + 200;
      connections.closeAfterAnswers(deadline);
      server.close();
      await connections.closed(deadline);
      await socketClosed;
      expect(Date.now()).toBeGreaterThanOrEqual(deadline);
    } finally {
      stop();
    }
  });
});
