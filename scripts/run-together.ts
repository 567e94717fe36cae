// `npm test`'s checks before Jest (type check, lint, API report): independent of each other, so they
// run at once, one per core, each one's output printed whole when it ends. Fails when any fails.
import { spawn } from 'node:child_process';

const scripts = process.argv.slice(2);

function runScript(name: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', name], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`> ${name}: ${code === 0 ? 'ok' : `failed (${code})`}\n${Buffer.concat(output).toString()}`);
      resolve(code ?? 1);
    });
  });
}

const codes = await Promise.all(scripts.map(runScript));
process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
