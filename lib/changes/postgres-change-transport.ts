import type { Client, Notification } from 'pg';

import { decodeChangeNotice, encodeChangeNotice, POSTGRES_PAYLOAD_LIMIT } from './change-notice-codec.js';
import type { ChangeNotice, ChangeTransport } from './change-transport.js';
import type { PostgresChangeTransportOptions } from './change-transport.types.js';
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

const TRANSPORT = 'PostgreSQL';

/**
 * Change notices through PostgreSQL's `LISTEN/NOTIFY`, on one dedicated connection of the `pg`
 * package (an optional peer, loaded on `start`). A notice is published with `pg_notify` outside
 * any transaction, so it leaves at once; one whose models would not fit in a payload says `'*'`.
 *
 * Every notice on the channel is delivered, the transport's own included: the user of the
 * transport (the live-query hub) drops those whose origin is its own.
 *
 * When the connection is lost (the server restarted, the backend was terminated, the network
 * failed), the transport reconnects after doubling waits, listens again and then delivers
 * `{ models: '*', origin: 'reconnect' }`, since notices may have been missed meanwhile; a publish
 * that failed meanwhile is followed, once connected, by a `'*'` notice from its origin to the
 * others. `close` ends the connection and any reconnection.
 */
export function postgresChangeTransport(options: PostgresChangeTransportOptions): ChangeTransport {
  return new PostgresChangeTransport(options);
}

class PostgresChangeTransport implements ChangeTransport {
  private readonly channel: string;
  private readonly onError: (error: unknown) => void;
  private readonly missed = new MissedPublish();
  private receive: (notice: ChangeNotice) => void = () => undefined;
  /** The listening connection; undefined while there is none. */
  private client?: Client;
  /** The connection being opened, which `close` waits for. */
  private opening?: Promise<void>;
  private closed = false;
  /** Ends the wait before the next reconnection attempt (on `close`). */
  private wake?: () => void;

  constructor(private readonly options: PostgresChangeTransportOptions) {
    this.channel = options.channel ?? DEFAULT_CHANGE_CHANNEL;
    this.onError = options.onError ?? warnOfTransportError(TRANSPORT);
  }

  async start(receive: (notice: ChangeNotice) => void): Promise<void> {
    this.receive = guardedReceiver(receive, this.onError);
    await this.open();
  }

  async publish(notice: ChangeNotice): Promise<void> {
    const client = this.client;
    if (!client) {
      this.missed.record(notice.origin);
      throw notConnected(TRANSPORT);
    }
    await this.notify(client, notice);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake?.();
    await this.opening?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async notify(client: Client, notice: ChangeNotice): Promise<void> {
    try {
      await client.query('SELECT pg_notify($1, $2)', [
        this.channel,
        encodeChangeNotice(notice, POSTGRES_PAYLOAD_LIMIT),
      ]);
    } catch (error) {
      this.missed.record(notice.origin);
      throw error;
    }
  }

  /** Opens and listens; the connection is kept only if `close` did not come meanwhile. */
  private open(): Promise<void> {
    this.opening = this.connect().then((client) => {
      if (this.closed) return client.end();
      this.client = client;
    });
    return this.opening;
  }

  private async connect(): Promise<Client> {
    const { Client } = (await loadPeer(() => import('pg'), 'pg', 'postgresChangeTransport')).default;
    const client = new Client({
      connectionString: this.options.connectionString,
      application_name: this.options.applicationName ?? 'nestjs-crud-api changes',
      keepAlive: true,
    });
    // Listeners before connecting: an 'error' event without one would be thrown.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection ended')));
    client.on('notification', (message) => this.deliver(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(this.channel)}`);
      return client;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private deliver(message: Notification): void {
    if (message.channel === this.channel) this.receive(decodeChangeNotice(message.payload ?? ''));
  }

  /** The listening connection failed (its failures while opening reject `connect` instead). */
  private lost(client: Client, error: Error): void {
    if (client !== this.client) return;
    this.client = undefined;
    this.onError(error);
    void client.end().catch(() => undefined);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, reconnectDelay(attempt, this.options.reconnect));
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.closed) return;
      try {
        await this.open();
      } catch (error) {
        this.onError(error);
        continue;
      }
      if (this.client) this.resumed(this.client);
      return;
    }
  }

  private resumed(client: Client): void {
    this.receive(RECONNECT_NOTICE);
    const missed = this.missed.take();
    if (missed) this.notify(client, missed).catch(this.onError);
  }
}
