import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { TestPlatform } from '../support/test-app.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** Where the application's PrismaService (which disconnects in `onModuleDestroy`) is declared. */
export type PrismaModulePlace = 'root' | 'before' | 'after';

export interface ShutdownAppSettings {
  databaseUrl: string;
  platform: TestPlatform;
  prismaModule: PrismaModulePlace;
  /** How long a write of a `slow…` tag waits in its transaction. */
  slowMs: number;
  gracePeriod: number;
}

export interface RunningShutdownApp {
  url: string;
  /** Resolves, with their tag names, once `count` slow writes have started in their transaction. */
  slowWritesStarted(count: number): Promise<string[]>;
  /** Resolves with the exit code (null when killed), and the output. */
  exited: Promise<{ code: number | null; output: string }>;
  signal(name: NodeJS.Signals): void;
}

/** Starts test/shutdown-app/main.ts in a child process (through tsx) and waits for its port. */
export async function startShutdownApp(settings: ShutdownAppSettings): Promise<RunningShutdownApp> {
  // Jest's NODE_OPTIONS (--experimental-vm-modules) is no business of the application's.
  const { NODE_OPTIONS: _, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...env,
      DATABASE_URL: settings.databaseUrl,
      PLATFORM: settings.platform,
      PRISMA_MODULE: settings.prismaModule,
      SLOW_MS: String(settings.slowMs),
      GRACE_PERIOD: String(settings.gracePeriod),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters: Array<() => void> = [];
  const read = (chunk: Buffer) => {
    output += chunk.toString();
    for (const check of waiters) check();
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, output })),
  );
  const until = (test: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} did not happen in time\n${output}`)), START_TIMEOUT_MS);
      const check = () => test() && (clearTimeout(timer), resolve());
      waiters.push(check);
      void exited.then(() => reject(new Error(`the application exited before: ${what}\n${output}`)));
      check();
    });
  try {
    await until(() => /listening on (\d+)/.test(output), 'listening');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${/listening on (\d+)/.exec(output)![1]}`,
    slowWritesStarted: async (count) => {
      const started = () => [...output.matchAll(/slow write started: (\S+)/g)].map((match) => match[1]!);
      await until(() => started().length >= count, `${count} slow writes`);
      return started();
    },
    exited,
    signal: (name) => child.kill(name),
  };
}
