import type { Socket } from 'node:net';

import type { Client, Notification } from 'pg';

import { decodeChangeNotice, encodeChangeNotice, POSTGRES_PAYLOAD_LIMIT } from './change-notice-codec.js';
import type { ChangeNotice, ChangeTransport } from './change-transport.js';
import type { PostgresChangeTransportOptions } from './change-transport.types.js';
import { ConnectionTransport, loadPeer, RECONNECT_NOTICE, reconnectDelay } from './transport-connection.js';

/**
 * Change notices through PostgreSQL's `LISTEN/NOTIFY`, on one dedicated connection of the `pg`
 * package (an optional peer, loaded on `start`). A notice is published with `pg_notify` outside
 * any transaction, so it leaves at once; one whose models would not fit in a payload says `'*'`.
 *
 * It delivers every notice on the channel, its own included: the user of the transport (the
 * live-query hub) drops the notices whose origin is its own.
 *
 * When the connection is lost (the server restarted, the backend was terminated, the network
 * failed), the transport reconnects after doubling waits, listens again and then delivers
 * `{ models: '*', origin: 'reconnect' }`, since notices may have been missed meanwhile; a publish
 * that failed meanwhile is followed, once connected, by a `'*'` notice from its origin to the
 * others. `start` rejects when the first connection fails; `close` ends the connection and any
 * reconnection.
 */
export function postgresChangeTransport(options: PostgresChangeTransportOptions): ChangeTransport {
  const channel = options.channel;
  if (channel !== undefined && !(channel.length > 0 && Buffer.byteLength(channel) <= POSTGRES_NAME_LIMIT)) {
    throw new Error(
      `postgresChangeTransport: the channel must have 1 to ${POSTGRES_NAME_LIMIT} bytes, not ${JSON.stringify(channel)}`,
    );
  }
  return new PostgresChangeTransport(options);
}

/** PostgreSQL's identifiers, channel names included, are at most this long (its default build). */
const POSTGRES_NAME_LIMIT = 63;

class PostgresChangeTransport extends ConnectionTransport {
  private receive: (notice: ChangeNotice) => void = () => undefined;
  /** The listening connection; undefined while there is none. */
  private client?: Client;
  /** The connection being opened, which `close` waits for. */
  private opening?: Promise<void>;
  private closed = false;
  /** Stops checking the listening connection. */
  private unwatch = () => {};

  constructor(private readonly options: PostgresChangeTransportOptions) {
    super('PostgreSQL', options);
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  async start(receive: (notice: ChangeNotice) => void): Promise<void> {
    this.receive = this.guarded(receive);
    await this.open();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.opening?.catch(() => undefined);
    this.unwatch();
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  protected async send(notice: ChangeNotice): Promise<void> {
    if (!this.client) throw this.notConnected();
    const payload = encodeChangeNotice(notice, POSTGRES_PAYLOAD_LIMIT);
    await this.client.query('SELECT pg_notify($1, $2)', [this.channel, payload]);
  }

  /** Opens and listens; the connection is kept only if `close` did not come meanwhile. */
  private open(): Promise<void> {
    this.opening = this.connect().then((client) => {
      if (this.closed) return client.end();
      this.client = client;
      this.unwatch = this.watch(
        () => client.query('SELECT 1'),
        (error) => this.silent(client, error),
      );
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
    this.unwatch();
    this.onError(error);
    // Closing a connection that failed can only fail as it did: that failure was just reported.
    void client.end().catch(() => undefined);
    // Each attempt's failure goes to onError inside: the loop itself does not reject.
    void this.reconnect();
  }

  /**
   * The connection stopped answering without closing: dropped here, since a socket to a vanished
   * peer would wait for the network's own timeouts.
   */
  private silent(client: Client, error: Error): void {
    this.lost(client, error);
    (client as unknown as { connection?: { stream?: Socket } }).connection?.stream?.destroy();
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      // Unreferenced: a transport waiting to reconnect does not keep the process alive.
      await new Promise((resolve) => setTimeout(resolve, reconnectDelay(attempt, this.options.reconnect)).unref());
      if (this.closed) return;
      try {
        await this.open();
      } catch (error) {
        this.onError(error);
        continue;
      }
      if (!this.client) return;
      this.receive(RECONNECT_NOTICE);
      this.publishMissed();
      return;
    }
  }
}
