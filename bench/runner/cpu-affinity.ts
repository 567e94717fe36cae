import { execFileSync } from 'node:child_process';
import os from 'node:os';

/**
 * The load generator and the servers each get a core of their own (Linux `taskset`), so the
 * scheduler cannot put autocannon on the core of the server it measures in one round and not the
 * next: on a 2-core machine that was the largest source of round-to-round noise.
 */
export const RUNNER_CPU = 0;
export const SERVER_CPU = 1;

/** Whether this machine can pin processes: Linux with `taskset` and at least two cores. */
export function canPinCpus(): boolean {
  if (os.platform() !== 'linux' || os.availableParallelism() < 2) return false;
  try {
    execFileSync('taskset', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Binds every thread of a running process to one core. */
export function pinProcess(pid: number, cpu: number): void {
  execFileSync('taskset', ['--all-tasks', '--pid', '--cpu-list', String(cpu), String(pid)], { stdio: 'ignore' });
}
