import { Logger } from '@nestjs/common';

import type { ChangeNotice, ChangeTransport } from './change-transport.js';
import type { ChangeTransportOptionsBase, ChangeTransportReconnect } from './change-transport.types.js';

/** What a transport tells its receiver once it listens again: notices may have been missed meanwhile. */
export const RECONNECT_NOTICE: ChangeNotice = Object.freeze({ models: '*', origin: 'reconnect' });

const DEFAULT_CHANGE_CHANNEL = 'crud_api_changes';

const logger = new Logger('CrudApi');

/**
 * Milliseconds before reconnection attempt `attempt` (0 first): doubling up to `maxDelay`, each
 * wait shortened by up to a half at random so that instances that lost one server do not all
 * come back to it at the same moment.
 */
export function reconnectDelay(
  attempt: number,
  { initialDelay = 100, maxDelay = 5000 }: ChangeTransportReconnect = {},
) {
  const ceiling = Math.min(maxDelay, initialDelay * 2 ** Math.min(attempt, 30));
  return ceiling * (0.5 + Math.random() / 2);
}

/**
 * Calls `ping` every `every` ms; when a ping is still unsettled at the next beat, calls `silent`
 * instead (then starts over). A ping that fails was answered: its connection reports its own
 * failures. Returns what stops it. Unreferenced: it keeps no process alive.
 */
export function heartbeat(every: number | false, ping: () => Promise<unknown>, silent: () => void): () => void {
  if (every === false) return () => undefined;
  let answered = true;
  const timer = setInterval(() => {
    if (!answered) {
      answered = true;
      silent();
      return;
    }
    answered = false;
    const answer = () => (answered = true);
    ping().then(answer, answer);
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}

/** An optional peer dependency, or an error that says which package to install. */
export async function loadPeer<T>(load: () => Promise<T>, name: string, user: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new Error(`${user} needs the package "${name}": npm install ${name}`, { cause: error });
  }
}

/**
 * What the transports share: the channel, where connection failures go (by default a warning on
 * Nest's `Logger`: the transport recovers, nothing is thrown), and the recovery of a failed publish.
 */
export abstract class ConnectionTransport implements ChangeTransport {
  protected readonly channel: string;
  protected readonly onError: (error: unknown) => void;
  private readonly beat: number | false;
  /** The origin of the latest publish that failed: the other instances missed its notice. */
  private missedOrigin?: string;

  protected constructor(
    private readonly server: string,
    options: ChangeTransportOptionsBase,
  ) {
    this.channel = options.channel ?? DEFAULT_CHANGE_CHANNEL;
    this.beat = options.heartbeat ?? 10_000;
    this.onError =
      options.onError ??
      ((error) => logger.warn(`${server} change transport: ${error instanceof Error ? error.message : String(error)}`));
  }

  abstract start(receive: (notice: ChangeNotice) => void): Promise<void>;
  abstract close(): Promise<void>;
  abstract get listening(): boolean;
  /** Sends on the connection of the moment; rejects without one (`notConnected`). */
  protected abstract send(notice: ChangeNotice): Promise<void>;

  async publish(notice: ChangeNotice): Promise<void> {
    try {
      await this.send(notice);
    } catch (error) {
      this.missedOrigin = notice.origin;
      throw error;
    }
  }

  /** Once connected again: tells the others `'*'` from the origin of a publish that failed meanwhile. */
  protected publishMissed(): void {
    const origin = this.missedOrigin;
    if (origin === undefined) return;
    this.missedOrigin = undefined;
    this.publish({ models: '*', origin }).catch(this.onError);
  }

  /** Checks a connection with `ping` at the `heartbeat` interval; `silent` gets what to report when one goes unanswered. */
  protected watch(ping: () => Promise<unknown>, silent: (error: Error) => void): () => void {
    return heartbeat(this.beat, ping, () => silent(new Error(`no answer within ${this.beat} ms`)));
  }

  protected notConnected(): Error {
    return new Error(`The ${this.server} change transport is not connected`);
  }

  /** `receive` as the connection's events call it, where a throw would go unhandled. */
  protected guarded(receive: (notice: ChangeNotice) => void): (notice: ChangeNotice) => void {
    return (notice) => {
      try {
        receive(notice);
      } catch (error) {
        this.onError(error);
      }
    };
  }
}
