import { spawn } from 'node:child_process';

const START_TIMEOUT_MS = 30_000;

/** A Nest application of a test's own, in a child process. */
export interface ChildApp {
  url: string;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves once `test` holds for its output; rejects if it exits first or after a while. */
  until(test: (output: string) => boolean, what: string): Promise<void>;
  /** Resolves with the exit code (null when killed), and the output. */
  exited: Promise<{ code: number | null; output: string }>;
  signal(name: NodeJS.Signals): void;
}

/**
 * Starts a test application's `main` (through tsx) with `env`, and waits until it prints
 * `listening on <port>`.
 */
export async function startChildApp(main: string, env: Record<string, string>): Promise<ChildApp> {
  // Jest's NODE_OPTIONS (--experimental-vm-modules) is no business of the application's.
  const { NODE_OPTIONS: _, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...inherited, ...env },
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
  const until = (test: (output: string) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what} did not happen in time\n${output}`)), START_TIMEOUT_MS);
      const check = () => test(output) && (clearTimeout(timer), resolve());
      waiters.push(check);
      void exited.then(() => reject(new Error(`the application exited before: ${what}\n${output}`)));
      check();
    });
  try {
    await until((text) => /listening on (\d+)/.test(text), 'listening');
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    url: `http://127.0.0.1:${/listening on (\d+)/.exec(output)![1]}`,
    output: () => output,
    until,
    exited,
    signal: (name) => child.kill(name),
  };
}
