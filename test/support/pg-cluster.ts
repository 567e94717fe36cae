import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
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

function freePort(): Promise<number> {
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
 * initdb into a temporary folder and start the server on a free port (trust authentication), as the
 * `postgres` OS user. `settings` are passed as `-c name=value` at every start.
 */
export async function createPgCluster(settings: Record<string, string> = {}): Promise<PgCluster> {
  const bin = await postgresBin();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'crud-api-pg-'));
  const { uid, gid } = await userIds(POSTGRES_USER);
  await chown(dir, uid, gid);
  const data = path.join(dir, 'data');
  const asPostgres = (command: string, args: string[]) =>
    run('runuser', ['-u', POSTGRES_USER, '--', path.join(bin, command), ...args], { cwd: dir });
  const port = await freePort();
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    ...Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`),
  ].join(' ');
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', POSTGRES_USER, '--no-sync', '-E', 'UTF8']);
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
    await cluster.start();
  } catch (error) {
    await cluster.remove();
    throw error;
  }
  return cluster;
}

async function userIds(user: string): Promise<{ uid: number; gid: number }> {
  const [{ stdout: uid }, { stdout: gid }] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid), gid: Number(gid) };
}
