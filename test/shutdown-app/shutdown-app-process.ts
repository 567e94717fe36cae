import { fileURLToPath } from 'node:url';

import { startChildApp } from '../support/child-app.js';
import type { TestPlatform } from '../support/test-app.js';

const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

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

/** Starts test/shutdown-app/main.ts in a child process and waits for its port. */
export async function startShutdownApp(settings: ShutdownAppSettings): Promise<RunningShutdownApp> {
  const app = await startChildApp(MAIN, {
    DATABASE_URL: settings.databaseUrl,
    PLATFORM: settings.platform,
    PRISMA_MODULE: settings.prismaModule,
    SLOW_MS: String(settings.slowMs),
    GRACE_PERIOD: String(settings.gracePeriod),
  });
  return {
    url: app.url,
    slowWritesStarted: async (count) => {
      const started = () => [...app.output().matchAll(/slow write started: (\S+)/g)].map((match) => match[1]!);
      await app.until(() => started().length >= count, `${count} slow writes`);
      return started();
    },
    exited: app.exited,
    signal: app.signal,
  };
}
