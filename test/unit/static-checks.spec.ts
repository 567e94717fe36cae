import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The checks `npm test` makes of the code itself, as Jest tests: they run beside the suites, on the
 * CPU the suites leave while they wait on databases and child processes, instead of before them.
 */
const CHECKS = [
  ['typecheck', 'the whole repository type-checks (`npm run typecheck`)'],
  ['lint', 'lint and formatting hold (`npm run lint`)'],
  ['api:check', 'the API reports match what the entry points export (`npm run api:check`)'],
] as const;

/** The script's exit code, and what it printed when it failed. */
async function run(script: string): Promise<{ code: number | string; output: string }> {
  // Jest's NODE_OPTIONS (--experimental-vm-modules, its heap size) is no business of the tools'.
  const { NODE_OPTIONS: _, ...env } = process.env;
  return promisify(execFile)('npm', ['run', '--silent', script], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 }).then(
    () => ({ code: 0, output: '' }),
    (error: { code?: number | string; stdout?: string; stderr?: string }) => ({
      code: error.code ?? 1,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
}

describe('the static checks', () => {
  it.each(CHECKS)(
    '%s: %s',
    async (script) => {
      expect(await run(script)).toEqual({ code: 0, output: '' });
    },
    600_000,
  );
});
