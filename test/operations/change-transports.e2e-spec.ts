import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

import { Redis } from 'ioredis';
import pg from 'pg';

import {
  type ChangeNotice,
  type ChangeTransport,
  postgresChangeTransport,
  redisChangeTransport,
} from '../../lib/index.js';
import { eventually, settled } from '../support/eventually.js';
import { REDIS_URL_VARIABLE, SERVER_URL_VARIABLES } from '../support/global-setup.js';
import { canCreatePgCluster, createPgCluster, freePort } from '../support/pg-cluster.js';

const RECONNECTED: ChangeNotice = { models: '*', origin: 'reconnect' };
/** Short waits, so that a test sees several reconnection attempts. */
const FAST_RECONNECT = { initialDelay: 20, maxDelay: 200 };

interface TransportSettings {
  url: string;
  channel: string;
  /** The transport's connection names on the server (`application_name`, `CLIENT SETNAME`). */
  name: string;
  reconnect?: { initialDelay?: number; maxDelay?: number };
  heartbeat?: number | false;
  onError?: (error: unknown) => void;
}

/** One kind of transport and what a test does to its server's connections. */
interface TransportKind {
  name: string;
  url: string | undefined;
  create(settings: TransportSettings): ChangeTransport;
  /** How many connections of that name the server has. */
  connections(url: string, name: string): Promise<number>;
  /** Closes those connections from the server's side. */
  kill(url: string, name: string): Promise<void>;
  /** The longest list of models that arrives as a list; undefined: no limit. */
  payloadLimit?: number;
  /** A server of its own that the test may stop and start again, when the machine can run one. */
  ownServer?: () => Promise<OwnServer>;
}

interface OwnServer {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  remove(): Promise<void>;
}

async function onPg<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function onRedis<T>(url: string, work: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis(url);
  try {
    return await work(client);
  } finally {
    await client.quit();
  }
}

/** `CLIENT LIST`'s ids of the connections whose name starts with `name:`. */
const redisClientIds = (client: Redis, name: string) =>
  client.call('CLIENT', 'LIST').then((list) =>
    String(list)
      .split('\n')
      .map((line) => Object.fromEntries(line.split(' ').map((field) => field.split('=', 2))))
      .filter((fields) => fields.name?.startsWith(`${name}:`))
      .map((fields) => String(fields.id)),
  );

const postgres: TransportKind = {
  name: 'PostgreSQL LISTEN/NOTIFY',
  url: process.env[SERVER_URL_VARIABLES.postgresql],
  create: ({ url, name, ...options }) =>
    postgresChangeTransport({ connectionString: url, applicationName: name, ...options }),
  connections: (url, name) =>
    onPg(url, async (client) => {
      const { rows } = await client.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [name],
      );
      return rows[0].n as number;
    }),
  kill: (url, name) =>
    onPg(url, async (client) => {
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [name]);
    }),
  payloadLimit: 7999,
  ownServer: canCreatePgCluster() ? () => createPgCluster() : undefined,
};

const redis: TransportKind = {
  name: 'Redis pub/sub',
  url: process.env[REDIS_URL_VARIABLE],
  create: ({ name, ...options }) => redisChangeTransport({ connectionName: name, ...options }),
  connections: (url, name) => onRedis(url, async (client) => (await redisClientIds(client, name)).length),
  kill: (url, name) =>
    onRedis(url, async (client) => {
      for (const id of await redisClientIds(client, name)) await client.call('CLIENT', 'KILL', 'ID', id);
    }),
  ownServer: async () => startRedisServer(await freePort()),
};

/** A `redis-server` of the test's own, which it may stop and start again on the same port. */
async function startRedisServer(port: number): Promise<OwnServer> {
  const url = `redis://127.0.0.1:${port}`;
  let server: ChildProcess | undefined;
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise((resolve) => {
      running.once('exit', resolve);
      running.kill('SIGKILL');
    });
  };
  const start = async () => {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    await eventually(() => onRedis(url, (client) => client.ping()), 5000);
  };
  await start();
  return { url, start, stop, remove: stop };
}

/** A TCP proxy that can stop forwarding on the connections it has, without closing them: a network gone silent. */
async function startSilenceableProxy(target: string) {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const pairs: [Socket, Socket][] = [];
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    pairs.push([client, upstream]);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const through = new URL(target);
  through.hostname = '127.0.0.1';
  through.port = String((server.address() as AddressInfo).port);
  return {
    url: through.toString(),
    silence: () => {
      for (const [client, upstream] of pairs.splice(0)) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A transport started with a receiver that keeps what it hears, closed after the test. */
interface Started {
  transport: ChangeTransport;
  heard: ChangeNotice[];
  /** The next notice heard. */
  next(): Promise<ChangeNotice>;
  errors: unknown[];
  name: string;
}

describe('postgresChangeTransport', () => {
  it.each(['', 'c'.repeat(64), 'é'.repeat(32)])('refuses a channel PostgreSQL cannot name (%j)', (channel) => {
    expect(() => postgresChangeTransport({ connectionString: 'postgresql://localhost/db', channel })).toThrow(
      'the channel must have 1 to 63 bytes',
    );
  });

  const itOnPostgres = postgres.url ? it : it.skip;
  itOnPostgres('takes a channel of the longest name, in any case', async () => {
    const channel = `Crud_${'x'.repeat(58)}`;
    const transport = postgresChangeTransport({ connectionString: postgres.url!, channel });
    const heard: ChangeNotice[] = [];
    await transport.start((notice) => heard.push(notice));
    try {
      await transport.publish({ models: ['Post'], origin: 'a' });
      await eventually(() => expect(heard).toEqual([{ models: ['Post'], origin: 'a' }]));
    } finally {
      await transport.close();
    }
  });
});

describe.each([postgres, redis])('$name change transport', (kind) => {
  const describeIfServer = kind.url ? describe : describe.skip;
  describeIfServer('on a server', () => {
    const url = kind.url!;
    const open: ChangeTransport[] = [];

    async function start(
      channel: string,
      settings: Partial<TransportSettings> = {},
      serverUrl = url,
    ): Promise<Started> {
      const name = `crud-api-test-${randomUUID().slice(0, 8)}`;
      const errors: unknown[] = [];
      const heard: ChangeNotice[] = [];
      const waiting: ((notice: ChangeNotice) => void)[] = [];
      const transport = kind.create({
        url: serverUrl,
        channel,
        name,
        reconnect: FAST_RECONNECT,
        onError: (error) => errors.push(error),
        ...settings,
      });
      open.push(transport);
      await transport.start((notice) => {
        heard.push(notice);
        waiting.splice(0).forEach((resolve) => resolve(notice));
      });
      const next = () => new Promise<ChangeNotice>((resolve) => waiting.push(resolve));
      return { transport, heard, next, errors, name };
    }

    const newChannel = () => `crud_api_test_${randomUUID().replaceAll('-', '').slice(0, 12)}`;

    afterEach(async () => {
      await Promise.all(open.splice(0).map((transport) => transport.close()));
    });

    it('delivers a notice to every transport on the channel, its publisher included, and to no other channel', async () => {
      const channel = newChannel();
      const [a, b, other] = [await start(channel), await start(channel), await start(newChannel())];
      const notice = { models: ['Post', 'User', 'odd "name"\n😀'], origin: 'instance-a' };
      await a.transport.publish(notice);
      await eventually(() => {
        expect(a.heard).toEqual([notice]);
        expect(b.heard).toEqual([notice]);
      });
      await settled();
      expect(other.heard).toEqual([]);
      expect([...a.errors, ...b.errors, ...other.errors]).toEqual([]);
    });

    it('delivers a long list of models as it is, or as * past the payload limit', async () => {
      const channel = newChannel();
      const [a, b] = [await start(channel), await start(channel)];
      const limit = kind.payloadLimit;
      const frame = JSON.stringify({ models: [''], origin: 'a' }).length;
      const fits = { models: ['m'.repeat((limit ?? 8000) - frame)], origin: 'a' };
      const tooLong = { models: Array.from({ length: 2000 }, (_, i) => `Model${i}`), origin: 'a' };
      await a.transport.publish(fits);
      await a.transport.publish(tooLong);
      await eventually(() => expect(b.heard).toEqual([fits, limit ? { models: '*', origin: 'a' } : tooLong]));
    });

    it('reconnects after the server closed its connections, says *, and carries notices again', async () => {
      const channel = newChannel();
      const [a, b] = [await start(channel), await start(channel)];
      await kind.kill(url, a.name);
      await eventually(() => expect(a.heard).toContainEqual(RECONNECTED));
      expect(a.errors.length).toBeGreaterThan(0);
      expect(b.heard).toEqual([]);
      await b.transport.publish({ models: ['Post'], origin: 'b' });
      // Redis's publisher has a connection of its own, which may come back after the subscriber's.
      await eventually(() => a.transport.publish({ models: ['User'], origin: 'a' }));
      await eventually(() => {
        expect(a.heard).toContainEqual({ models: ['Post'], origin: 'b' });
        expect(b.heard).toContainEqual({ models: ['User'], origin: 'a' });
      });
    });

    it('is not listening from the loss of its connection until it listens again', async () => {
      const states: Array<boolean | undefined> = [];
      const reporting: { transport?: ChangeTransport } = {};
      const settings = {
        reconnect: { initialDelay: 300, maxDelay: 300 },
        onError: () => states.push(reporting.transport?.listening),
      };
      const a = await start(newChannel(), settings);
      reporting.transport = a.transport;
      expect(a.transport.listening).toBe(true);
      await kind.kill(url, a.name);
      await eventually(() => expect(a.transport.listening).toBe(false));
      await eventually(() => expect(a.heard).toContainEqual(RECONNECTED));
      expect(a.transport.listening).toBe(true);
      // By the time its subscribing connection's loss was reported, it was no longer listening.
      expect(states).toContain(false);
      await a.transport.close();
      expect(a.transport.listening).toBe(false);
    });

    it('rejects a publish while disconnected, then tells the others * from its origin once back', async () => {
      const channel = newChannel();
      const [a, b] = [await start(channel, { reconnect: { initialDelay: 400, maxDelay: 400 } }), await start(channel)];
      await kind.kill(url, a.name);
      await eventually(() => expect(a.transport.publish({ models: ['Post'], origin: 'a' })).rejects.toThrow());
      await eventually(() => expect(b.heard).toContainEqual({ models: '*', origin: 'a' }));
    });

    it('releases its connections on close and never reconnects afterwards', async () => {
      const channel = newChannel();
      const a = await start(channel);
      expect(await kind.connections(url, a.name)).toBeGreaterThan(0);
      await a.transport.close();
      await eventually(async () => expect(await kind.connections(url, a.name)).toBe(0));
      await new Promise((resolve) => setTimeout(resolve, 10 * FAST_RECONNECT.initialDelay));
      expect(await kind.connections(url, a.name)).toBe(0);
      await expect(a.transport.publish({ models: ['Post'], origin: 'a' })).rejects.toThrow();
      expect(a.heard).toEqual([]);
    });

    it('stops reconnecting when closed while waiting to reconnect, and leaves no timer behind', async () => {
      const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
      const before = timers();
      const a = await start(newChannel(), { reconnect: { initialDelay: 300, maxDelay: 300 } });
      await kind.kill(url, a.name);
      await eventually(() => expect(a.errors.length).toBeGreaterThan(0));
      await a.transport.close();
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await kind.connections(url, a.name)).toBe(0);
      expect(a.heard).toEqual([]);
      expect(timers()).toBeLessThanOrEqual(before);
    });

    it('opens its connection again when the network goes silent', async () => {
      const proxy = await startSilenceableProxy(url);
      try {
        const channel = newChannel();
        const a = await start(channel, { heartbeat: 100 }, proxy.url);
        const b = await start(channel);
        proxy.silence();
        await eventually(() => expect(a.heard).toContainEqual(RECONNECTED), 8000);
        await b.transport.publish({ models: ['Post'], origin: 'b' });
        await eventually(() => expect(a.heard).toContainEqual({ models: ['Post'], origin: 'b' }));
      } finally {
        await proxy.close();
      }
    });

    it('rejects start when the server does not answer, and tries no more', async () => {
      const errors: unknown[] = [];
      const nowhere = new URL(url);
      nowhere.port = String(await freePort());
      const transport = kind.create({
        url: nowhere.toString(),
        channel: newChannel(),
        name: 'crud-api-test-nowhere',
        reconnect: FAST_RECONNECT,
        onError: (error) => errors.push(error),
      });
      await expect(transport.start(() => undefined)).rejects.toThrow();
      const failures = errors.length;
      await new Promise((resolve) => setTimeout(resolve, 10 * FAST_RECONNECT.initialDelay));
      expect(errors).toHaveLength(failures);
      await transport.close();
    });

    it('prints its publish-to-receive latency', async () => {
      const channel = newChannel();
      const [a, b] = [await start(channel), await start(channel)];
      const latencies: number[] = [];
      for (let i = 0; i < 300; i++) {
        const origin = `latency-${i}`;
        const received = b.next();
        const sent = performance.now();
        await a.transport.publish({ models: ['Post'], origin });
        expect(await received).toEqual({ models: ['Post'], origin });
        latencies.push(performance.now() - sent);
      }
      latencies.sort((x, y) => x - y);
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2);
      console.log(
        `${kind.name}: publish to receive over ${latencies.length} notices: p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
      );
    });
  });

  const describeIfOwnServer = kind.url && kind.ownServer ? describe : describe.skip;
  describeIfOwnServer('on a server that restarts', () => {
    let server: OwnServer;
    beforeAll(async () => {
      server = await kind.ownServer!();
    });
    afterAll(async () => {
      await server?.remove();
    });

    it('comes back when the server does, says *, and carries notices again', async () => {
      const heard: ChangeNotice[] = [];
      const errors: unknown[] = [];
      const settings = { url: server.url, channel: 'crud_api_restart', reconnect: FAST_RECONNECT };
      const a = kind.create({ ...settings, name: 'restart-a', onError: (error) => errors.push(error) });
      const b = kind.create({ ...settings, name: 'restart-b', onError: () => undefined });
      try {
        await a.start((notice) => heard.push(notice));
        await b.start(() => undefined);
        await server.stop();
        await eventually(() => expect(errors.length).toBeGreaterThan(1));
        await server.start();
        await eventually(() => expect(heard).toContainEqual(RECONNECTED), 10_000);
        await eventually(async () => {
          await b.publish({ models: ['Post'], origin: 'b' });
          expect(heard).toContainEqual({ models: ['Post'], origin: 'b' });
        }, 10_000);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
});
