import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const POSTGRES_USER = 'postgres';

/** A PostgreSQL server of its own, which a test may stop and start without touching the shared one. */
export interface PgCluster {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  start(): Promise<void>;
  /** Fast shutdown: open sessions are terminated (57P01), new connections are refused. */
  stop(): Promise<void>;
  /** Stops the server and removes its files. */
  remove(): Promise<void>;
}

async function postgresBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  return path.join('/usr/lib/postgresql', versions[0]!, 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Whether this machine can run a server of its own: root (to run it as `postgres`) and PostgreSQL's binaries. */
export function canCreatePgCluster(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/lib/postgresql');
}

/**
 * initdb into a temporary folder and start the server on a free port (trust authentication, also
 * for replication from the loopback), as the `postgres` OS user. `settings` are passed as
 * `-c name=value` at every start.
 */
export async function createPgCluster(settings: Record<string, string> = {}): Promise<PgCluster> {
  return startedCluster(settings, (data, asPostgres) =>
    asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', POSTGRES_USER, '--no-sync', '-E', 'UTF8']),
  );
}

/** A hot standby streaming from `primary`, copied with pg_basebackup, started on a port of its own. */
export async function createPgReplica(primary: PgCluster): Promise<PgCluster> {
  return startedCluster({}, (data, asPostgres) =>
    asPostgres('pg_basebackup', [
      ...['-h', '127.0.0.1', '-p', String(primary.port), '-U', POSTGRES_USER],
      ...['-D', data, '--write-recovery-conf', '--wal-method=stream', '--checkpoint=fast', '--no-sync'],
    ]),
  );
}

type AsPostgres = (command: string, args: string[]) => Promise<unknown>;

/** A temporary folder owned by `postgres`, its data directory made by `create`, and the server started there. */
async function startedCluster(
  settings: Record<string, string>,
  create: (data: string, asPostgres: AsPostgres) => Promise<unknown>,
): Promise<PgCluster> {
  const bin = await postgresBin();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crud-api-pg-'));
  const { uid, gid } = await userIds(POSTGRES_USER);
  await chown(dir, uid, gid);
  const data = path.join(dir, 'data');
  const asPostgres: AsPostgres = (command, args) =>
    run('runuser', ['-u', POSTGRES_USER, '--', path.join(bin, command), ...args], { cwd: dir });
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  const cluster: PgCluster = {
    url: `postgresql://${POSTGRES_USER}@127.0.0.1:${port}/postgres`,
    port,
    start: async () => {
      await asPostgres('pg_ctl', ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
    },
    stop: async () => {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    remove: async () => {
      await asPostgres('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await create(data, asPostgres);
    await cluster.start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}

/** Whether PgBouncer is installed (Debian's `pgbouncer` package; CI installs it). */
export function hasPgBouncer(): boolean {
  return existsSync('/usr/sbin/pgbouncer');
}

/** PgBouncer in transaction pooling mode in front of the server at `port`, as the `postgres` OS user. */
export async function startPgBouncer(
  port: number,
  poolSize: number,
): Promise<{ url(database: string): string; stop(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crud-api-pgbouncer-'));
  const { uid, gid } = await userIds(POSTGRES_USER);
  await chown(dir, uid, gid);
  const listenPort = await freePort();
  const config = path.join(dir, 'pgbouncer.ini');
  await writeFile(
    config,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${port} user=${POSTGRES_USER}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${listenPort}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      `logfile = ${path.join(dir, 'log')}`,
    ].join('\n'),
  );
  // Started as root, PgBouncer switches to the user itself (`-u`), so the signals below reach it.
  const bouncer: ChildProcess = spawn('/usr/sbin/pgbouncer', ['-u', POSTGRES_USER, config], { stdio: 'ignore' });
  const exited = new Promise((resolve) => bouncer.once('exit', resolve));
  const stop = async () => {
    bouncer.kill('SIGINT');
    await exited;
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await untilListening(listenPort);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: (database) => `postgresql://${POSTGRES_USER}@127.0.0.1:${listenPort}/${database}`, stop };
}

async function untilListening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const listening = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (listening) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Nothing listens on port ${port}.`);
}

async function userIds(user: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid), gid: Number(gid) };
}
