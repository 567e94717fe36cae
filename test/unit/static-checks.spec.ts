import { execFile } from 'node:child_process';
import path from 'node:path';

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

/** The script's exit code and, when it fails, what it printed. */
function run(script: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    // Jest's NODE_OPTIONS (--experimental-vm-modules, its heap size) is no business of the tools'.
    const { NODE_OPTIONS: _, ...env } = process.env;
    execFile(
      'npm',
      ['run', '--silent', script],
      { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: error ? `${stdout}${stderr}` : '' }),
    );
  });
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
