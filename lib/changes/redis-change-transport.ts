import type { Redis, RedisOptions } from 'ioredis';

import { decodeChangeNotice, encodeChangeNotice } from './change-notice-codec.js';
import type { ChangeNotice, ChangeTransport } from './change-transport.js';
import type { RedisChangeTransportOptions } from './change-transport.types.js';
import {
  DEFAULT_CHANGE_CHANNEL,
  guardedReceiver,
  loadPeer,
  MissedPublish,
  notConnected,
  RECONNECT_NOTICE,
  reconnectDelay,
  warnOfTransportError,
} from './transport-connection.js';

const TRANSPORT = 'Redis';

/**
 * Change notices through Redis pub/sub, with the `ioredis` package (an optional peer, loaded on
 * `start`): one connection subscribes to the channel, another publishes.
 *
 * Every notice on the channel is delivered, the transport's own included: the user of the
 * transport (the live-query hub) drops those whose origin is its own.
 *
 * A lost connection is opened again after doubling waits. Once the subscriber is subscribed again,
 * the transport delivers `{ models: '*', origin: 'reconnect' }`, since Redis keeps no message for a
 * subscriber that was away; a publish that failed meanwhile is followed, once the publisher is
 * back, by a `'*'` notice from its origin to the others. `close` ends both connections.
 */
export function redisChangeTransport(options: RedisChangeTransportOptions): ChangeTransport {
  return new RedisChangeTransport(options);
}

class RedisChangeTransport implements ChangeTransport {
  private readonly channel: string;
  private readonly onError: (error: unknown) => void;
  private readonly missed = new MissedPublish();
  private subscriber?: Redis;
  private publisher?: Redis;
  private closed = false;

  constructor(private readonly options: RedisChangeTransportOptions) {
    this.channel = options.channel ?? DEFAULT_CHANGE_CHANNEL;
    this.onError = options.onError ?? warnOfTransportError(TRANSPORT);
  }

  async start(receive: (notice: ChangeNotice) => void): Promise<void> {
    const { Redis } = await loadPeer(() => import('ioredis'), 'ioredis', 'redisChangeTransport');
    const deliver = guardedReceiver(receive, this.onError);
    const subscriber = (this.subscriber = new Redis(this.options.url, this.settings('subscriber')));
    const publisher = (this.publisher = new Redis(this.options.url, this.settings('publisher')));
    for (const client of [subscriber, publisher]) this.reportFailures(client);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) deliver(decodeChangeNotice(message));
    });
    try {
      await Promise.all([subscriber.connect(), publisher.connect()]);
      await subscriber.subscribe(this.channel);
    } catch (error) {
      await this.close();
      throw error;
    }
    // Registered once connected: each later 'ready' follows a lost connection.
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(() => deliver(RECONNECT_NOTICE), this.onError);
    });
    publisher.on('ready', () => {
      const missed = this.missed.take();
      if (missed) this.send(publisher, missed).catch(this.onError);
    });
  }

  async publish(notice: ChangeNotice): Promise<void> {
    const publisher = this.publisher;
    if (publisher?.status !== 'ready') {
      this.missed.record(notice.origin);
      throw notConnected(TRANSPORT);
    }
    await this.send(publisher, notice);
  }

  async close(): Promise<void> {
    this.closed = true;
    const clients = [this.subscriber, this.publisher];
    this.subscriber = this.publisher = undefined;
    await Promise.all(clients.map((client) => client && disconnect(client)));
  }

  private async send(publisher: Redis, notice: ChangeNotice): Promise<void> {
    try {
      await publisher.publish(this.channel, encodeChangeNotice(notice));
    } catch (error) {
      this.missed.record(notice.origin);
      throw error;
    }
  }

  private settings(role: 'subscriber' | 'publisher'): RedisOptions {
    return {
      connectionName: `${this.options.connectionName ?? 'nestjs-crud-api-changes'}:${role}`,
      lazyConnect: true,
      retryStrategy: (attempt) => reconnectDelay(attempt - 1, this.options.reconnect),
      // Subscribing again is this transport's (then it says '*'). A publish while disconnected
      // fails at once rather than waiting in a queue, and one sent when the connection drops fails
      // then: without `maxRetriesPerRequest: 0`, ioredis would keep it, unsettled, for a resend.
      autoResubscribe: false,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      maxRetriesPerRequest: 0,
    };
  }

  /** Errors and lost connections go to `onError`; ioredis reconnects by itself. */
  private reportFailures(client: Redis): void {
    let ready = false;
    client.on('error', this.onError);
    client.on('ready', () => (ready = true));
    client.on('close', () => {
      if (!ready || this.closed) return;
      ready = false;
      this.onError(new Error(`${client.options.connectionName} connection lost`));
    });
  }
}

/** Closes a connection now; resolves once its socket is closed, if it had one. */
function disconnect(client: Redis): Promise<void> {
  const hasSocket = !['end', 'reconnecting', 'close'].includes(client.status);
  const ended = hasSocket ? new Promise<void>((resolve) => client.once('end', () => resolve())) : undefined;
  client.disconnect();
  return ended ?? Promise.resolve();
}
