import type { Redis, RedisOptions } from 'ioredis';

import { decodeChangeNotice, encodeChangeNotice } from './change-notice-codec.js';
import type { ChangeNotice, ChangeTransport } from './change-transport.js';
import type { RedisChangeTransportOptions } from './change-transport.types.js';
import { ConnectionTransport, loadPeer, RECONNECT_NOTICE, reconnectDelay } from './transport-connection.js';

/**
 * Change notices through Redis pub/sub, with the `ioredis` package (an optional peer, loaded on
 * `start`): one connection subscribes to the channel, another publishes.
 *
 * It delivers every notice on the channel, its own included: the user of the transport (the
 * live-query hub) drops the notices whose origin is its own.
 *
 * A lost connection is opened again after doubling waits. Once the subscriber is subscribed again,
 * the transport delivers `{ models: '*', origin: 'reconnect' }`, since Redis keeps no message for a
 * subscriber that was away; a publish that failed meanwhile is followed, once the publisher is
 * back, by a `'*'` notice from its origin to the others. `start` rejects when the first connections
 * fail; `close` ends both connections.
 */
export function redisChangeTransport(options: RedisChangeTransportOptions): ChangeTransport {
  return new RedisChangeTransport(options);
}

class RedisChangeTransport extends ConnectionTransport {
  private subscriber?: Redis;
  private publisher?: Redis;
  private closed = false;
  /** Whether the subscriber is subscribed to the channel now. */
  private subscribed = false;
  /** Stop checking the connections. */
  private unwatch: (() => void)[] = [];

  constructor(private readonly options: RedisChangeTransportOptions) {
    super('Redis', options);
  }

  get listening(): boolean {
    return this.subscribed;
  }

  async start(receive: (notice: ChangeNotice) => void): Promise<void> {
    const { Redis } = await loadPeer(() => import('ioredis'), 'ioredis', 'redisChangeTransport');
    const deliver = this.guarded(receive);
    const subscriber = (this.subscriber = new Redis(this.options.url, this.settings('subscriber')));
    const publisher = (this.publisher = new Redis(this.options.url, this.settings('publisher')));
    // Before `supervise`'s listener: by the time a loss is reported, the transport says so.
    subscriber.on('close', () => (this.subscribed = false));
    for (const client of [subscriber, publisher]) this.supervise(client);
    subscriber.on('message', (channel: string, message: string) => {
      if (channel === this.channel) deliver(decodeChangeNotice(message));
    });
    try {
      await Promise.all([subscriber.connect(), publisher.connect()]);
      await subscriber.subscribe(this.channel);
      this.subscribed = true;
    } catch (error) {
      await this.close();
      throw error;
    }
    // Registered once connected: each later 'ready' follows a lost connection.
    subscriber.on('ready', () => {
      subscriber.subscribe(this.channel).then(() => {
        this.subscribed = true;
        deliver(RECONNECT_NOTICE);
      }, this.onError);
    });
    publisher.on('ready', () => this.publishMissed());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.subscribed = false;
    this.unwatch.splice(0).forEach((stop) => stop());
    const clients = [this.subscriber, this.publisher];
    this.subscriber = this.publisher = undefined;
    await Promise.all(clients.map((client) => client && disconnect(client)));
  }

  protected async send(notice: ChangeNotice): Promise<void> {
    if (this.publisher?.status !== 'ready') throw this.notConnected();
    await this.publisher.publish(this.channel, encodeChangeNotice(notice));
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
      // `close` ends a socket at once: it has nothing to flush, and ioredis's wait for it would
      // hold the process up after a close during a reconnection wait.
      disconnectTimeout: 0,
    };
  }

  /**
   * Errors and lost connections go to `onError`; ioredis reconnects by itself, also when the
   * heartbeat found the connection silent.
   */
  private supervise(client: Redis): void {
    const ping = () => (client.status === 'ready' ? client.ping() : Promise.resolve());
    const silent = (error: Error) => {
      this.onError(error);
      client.disconnect(true);
    };
    this.unwatch.push(this.watch(ping, silent));
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
