import { once } from 'node:events';
import net from 'node:net';

import { Controller, Get, Inject, Query } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';

import { createSampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { CrudApiHealth, type PrismaClientLike } from '../../lib/index.js';
import { createTestApp, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

/** A port nothing listens on (opened, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server that takes connections and never answers: a database too slow for any bound. */
function silentServer(): { server: net.Server; stop(): Promise<void> } {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket)).listen(0, '127.0.0.1');
  const stop = () => {
    sockets.forEach((socket) => socket.destroy());
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { server, stop };
}

/** Clients a check probes instead of the instance's: of servers that do not work, or not yet connected. */
const clients: Record<string, PrismaClientLike> = {};

/** What an application writes for terminus: the module's indicator among its health checks. */
@Controller('health')
class HealthController {
  constructor(
    @Inject(HealthCheckService) private readonly health: HealthCheckService,
    @Inject(CrudApiHealth) private readonly crudApi: CrudApiHealth,
  ) {}

  @Get()
  @HealthCheck()
  check(@Query('client') client?: string, @Query('timeout') timeout = '500') {
    const options = { timeout: Number(timeout), connectTimeout: 2000, prisma: clients[client ?? ''] };
    return this.health.check([() => this.crudApi.check('database', options)]);
  }
}

const terminus = { imports: [TerminusModule], controllers: [HealthController] };

describe.each(testProviders())('CrudApiHealth with @nestjs/terminus (%s)', (provider) => {
  const t = useTestApp(provider, { metadata: terminus });
  const silent = silentServer();
  beforeAll(async () => {
    if (!silent.server.listening) await once(silent.server, 'listening');
    const silentPort = (silent.server.address() as net.AddressInfo).port;
    clients.unreachable = createSampleDatabase(`postgresql://postgres@127.0.0.1:${await closedPort()}/test`).prisma;
    clients.slow = createSampleDatabase(`postgresql://postgres@127.0.0.1:${silentPort}/test`).prisma;
  });
  afterAll(async () => {
    await silent.stop();
    await Promise.all(Object.values(clients).map((client) => client.$disconnect()));
  });

  it('is up while the database answers', async () => {
    const res = await t.http().get('/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  // A new client starts its engine and opens its first connection on its first query: that start
  // is not the database's answer time, which the (here impossibly short) timeout bounds.
  it('is up on the first check of a client not connected yet', async () => {
    clients.fresh = createSampleDatabase(t.db.url).prisma;
    const res = await t.http().get('/health').query({ client: 'fresh', timeout: 1 }).expect(200);
    expect(res.body).toMatchObject({ status: 'ok', info: { database: { status: 'up' } } });
  });

  it.each([
    ['unreachable', 'database-unreachable'],
    ['slow', 'database-timeout'],
  ])('is down, 503, when the database is %s', async (client, reason) => {
    const res = await t.http().get('/health').query({ client }).expect(503);
    expect(res.body).toMatchObject({ status: 'error', error: { database: { status: 'down', reason } } });
  });
});

describe.each(testProviders())('CrudApiHealth while the application shuts down (%s)', (provider) => {
  it('is down, and the routes refuse new requests, while accepted ones drain', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inTransaction = new Promise<void>((resolve) => (entered = resolve));
    const t = await createTestApp(provider, {
      metadata: terminus,
      options: {
        defaultPolicy: 'allow',
        rules: { Tag: { beforeCreate: () => (entered(), gate) } },
      },
    });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const post = (name: string) =>
      fetch(`${url}/api/rest/tag`, {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: { type: 'tag', attributes: { name } } }),
      });
    try {
      const accepted = post('accepted');
      await inTransaction;
      const closing = t.app.close();

      const health = await fetch(`${url}/health`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ error: { database: { status: 'down', reason: 'shutting-down' } } });
      const refused = await post('refused');
      expect([refused.status, (await refused.json()).errors[0].code]).toEqual([503, 'shutting-down']);

      release();
      expect((await accepted).status).toBe(201);
      await closing;
      expect((await t.db.prisma.tag.findMany()).map((tag) => tag.name)).toEqual(['accepted']);
    } finally {
      release();
      await t.db.drop();
    }
  });
});
