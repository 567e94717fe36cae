import { Logger } from '@nestjs/common';

import type { ChangeNotice } from './change-transport.js';
import type { ChangeTransportReconnect } from './change-transport.types.js';

/** What a transport tells its receiver once it listens again: notices may have been missed meanwhile. */
export const RECONNECT_NOTICE: ChangeNotice = Object.freeze({ models: '*', origin: 'reconnect' });

export const DEFAULT_CHANGE_CHANNEL = 'crud_api_changes';

const logger = new Logger('CrudApi');

/** The default `onError`: connection failures are logged, never thrown (the transport recovers). */
export const warnOfTransportError =
  (transport: string) =>
  (error: unknown): void => {
    logger.warn(`${transport} change transport: ${error instanceof Error ? error.message : String(error)}`);
  };

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

/** Rejects a publish: the caller logs it, and the transport tells the others `'*'` once it is back. */
export const notConnected = (transport: string) => new Error(`The ${transport} change transport is not connected`);

/** `receive` as a transport calls it from its connection's events, where a throw would go unhandled. */
export const guardedReceiver =
  (receive: (notice: ChangeNotice) => void, onError: (error: unknown) => void) =>
  (notice: ChangeNotice): void => {
    try {
      receive(notice);
    } catch (error) {
      onError(error);
    }
  };

/** An optional peer dependency, or an error that says which package to install. */
export async function loadPeer<T>(load: () => Promise<T>, name: string, user: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new Error(`${user} needs the package "${name}": npm install ${name}`, { cause: error });
  }
}

/**
 * The origin of the latest publish that failed: the other instances missed its notice, so the
 * transport publishes `'*'` from that origin once it is connected again.
 */
export class MissedPublish {
  private origin?: string;

  record(origin: string): void {
    this.origin = origin;
  }

  /** The notice to publish now, if a publish failed since the last call. */
  take(): ChangeNotice | undefined {
    const origin = this.origin;
    this.origin = undefined;
    return origin === undefined ? undefined : { models: '*', origin };
  }
}
