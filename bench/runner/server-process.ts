import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  encodeServerArgs,
  type RunnerMessage,
  type ServerArgs,
  type ServerMemory,
  type ServerMessage,
  type ServerStats,
  type Side,
} from '../server/server-protocol.js';
import { pinProcess } from './cpu-affinity.js';

/** Where a server runs: on which core (unpinned when absent), whether it writes a CPU profile. */
export interface ServerPlacement {
  cpuProfDir?: string;
  cpu?: number;
  /** Run with `--expose-gc`, so that `memory()` measures after a full collection. */
  exposeGc?: boolean;
}

const SERVER_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/bench-server.js');
const START_TIMEOUT_MS = 60_000;

/** A server child process on loopback, controlled over IPC. */
export class ServerProcess {
  private constructor(
    readonly side: Side,
    readonly port: number,
    private readonly child: ChildProcess,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async start(args: Omit<ServerArgs, 'port'>, placement: ServerPlacement = {}): Promise<ServerProcess> {
    const { cpuProfDir, cpu, exposeGc } = placement;
    const port = await freePort();
    const execArgv = cpuProfDir
      ? ['--cpu-prof', '--cpu-prof-dir', cpuProfDir, '--cpu-prof-name', `${args.scenario}-${args.side}.cpuprofile`]
      : [];
    if (exposeGc) execArgv.push('--expose-gc');
    const child = fork(SERVER_SCRIPT, encodeServerArgs({ ...args, port }), {
      execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const server = new ServerProcess(args.side, port, child);
    await server.receive('ready', START_TIMEOUT_MS);
    // After start-up, so that the threads Node started (GC, libuv) are bound as well.
    if (cpu !== undefined) pinProcess(child.pid!, cpu);
    return server;
  }

  async reset(): Promise<void> {
    this.send({ type: 'reset' });
    await this.receive('reset');
  }

  async stats(): Promise<ServerStats> {
    this.send({ type: 'stats' });
    const message = await this.receive('stats');
    return (message as Extract<ServerMessage, { type: 'stats' }>).stats;
  }

  async memory(): Promise<ServerMemory> {
    this.send({ type: 'memory' });
    const message = await this.receive('memory');
    return (message as Extract<ServerMessage, { type: 'memory' }>).memory;
  }

  /** Asks the server to close (so a CPU profile gets written), killing it if it does not exit in time. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }

  private send(message: RunnerMessage): void {
    this.child.send(message);
  }

  private receive(type: ServerMessage['type'], timeoutMs = 10_000): Promise<ServerMessage> {
    return new Promise((resolve, reject) => {
      const cleanup = () => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      const onMessage = (message: ServerMessage) => {
        if (message.type !== type) return;
        cleanup();
        resolve(message);
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`${this.side} server exited (code ${code}) while waiting for "${type}"`));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`${this.side} server did not answer "${type}" within ${timeoutMs} ms`));
      }, timeoutMs);
      this.child.on('message', onMessage);
      this.child.on('exit', onExit);
    });
  }
}

/** A port that was free a moment ago on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
