import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent.js';

import { renderSchemaDdl } from '../../fixtures/blog/database/schema-push.js';
import { NEST11_APP_DIR } from './prepare-nest11-app.js';

const SCHEMA = path.join(NEST11_APP_DIR, 'prisma/schema.prisma');
const START_TIMEOUT_MS = 30_000;

/** How the Nest 11 application is started: its platform, and `NestFactory` or a testing module. */
export interface Nest11Bootstrap {
  platform: 'express' | 'fastify';
  bootstrap: 'factory' | 'testing';
}

export interface RunningNest11App {
  /** An agent sending `headers` with every request. */
  http: (headers?: Record<string, string>) => TestAgent;
  url: string;
  /** The SQLite file the application writes. */
  database: string;
  signal(signal: NodeJS.Signals): void;
  /** The exit of the process: its code, or the signal that ended it, and what it printed. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
  stop(): Promise<void>;
}

/** A fresh SQLite file with the application's tables (the offline `db push`, see fixtures/blog/database/schema-push.ts). */
export async function createDatabase(): Promise<string> {
  const file = path.join(os.tmpdir(), `crud_api_nest11_${randomUUID().slice(0, 8)}.db`);
  const ddl = await renderSchemaDdl(SCHEMA, new PrismaBetterSqlite3({ url: `file:${file}` }));
  const db = new Database(file);
  db.exec(ddl);
  db.close();
  return file;
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts the built application (`node dist/main.js`) over a fresh database and waits for its port. */
export async function startNest11App({ platform, bootstrap }: Nest11Bootstrap): Promise<RunningNest11App> {
  const database = await createDatabase();
  // Jest's NODE_OPTIONS (--experimental-vm-modules) is no business of the application's.
  const { NODE_OPTIONS: _, ...env } = process.env;
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: NEST11_APP_DIR,
    env: { ...env, DATABASE_URL: `file:${database}`, PLATFORM: platform, BOOTSTRAP: bootstrap },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stop = async () => {
    child.kill('SIGTERM');
    await exited(child);
    rmSync(database, { force: true });
  };
  let output = '';
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal, output })),
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the application did not start in time')), START_TIMEOUT_MS);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const listening = /listening on (\d+)/.exec(output);
        if (!listening) return;
        clearTimeout(timer);
        resolve(Number(listening[1]));
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once(
        'exit',
        (code) => (clearTimeout(timer), reject(new Error(`the application exited with code ${code}`))),
      );
    });
    const url = `http://127.0.0.1:${port}`;
    return {
      http: (headers = {}) => request.agent(url).set(headers),
      url,
      database,
      signal: (signal) => child.kill(signal),
      exited: exit,
      stop,
    };
  } catch (error) {
    await stop();
    throw new Error(`Nest 11 application (${platform}, ${bootstrap}): ${(error as Error).message}\n${output}`, {
      cause: error,
    });
  }
}
