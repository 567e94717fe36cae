/** How a transport comes back after it lost its connection: waits that double from `initialDelay` up to `maxDelay`. */
export interface ChangeTransportReconnect {
  /** Milliseconds before the first attempt after a loss (default 100). */
  initialDelay?: number;
  /** The longest wait between two attempts, in milliseconds (default 5000). */
  maxDelay?: number;
}

/** What both transports take. */
export interface ChangeTransportOptionsBase {
  /**
   * The channel the instances publish on and listen to (default `crud_api_changes`): instances of
   * one application share it, another application on the same server takes its own.
   */
  channel?: string;
  reconnect?: ChangeTransportReconnect;
  /**
   * Milliseconds between the checks of each connection (default 10000): a check still unanswered
   * at the next one means the network went silent (a peer gone without closing, a firewall that
   * forgot the connection), and the connection is opened again. `false`: no checks.
   */
  heartbeat?: number | false;
  /**
   * Told of each connection failure the transport recovers from by itself (a lost connection, a
   * failed reconnection attempt). Default: a warning on Nest's `Logger`.
   */
  onError?: (error: unknown) => void;
}

/** `postgresChangeTransport`'s options: `LISTEN/NOTIFY` on one dedicated connection. */
export interface PostgresChangeTransportOptions extends ChangeTransportOptionsBase {
  /**
   * A direct connection to PostgreSQL, or through a session-mode pool: `LISTEN` does not survive
   * PgBouncer's transaction pooling.
   */
  connectionString: string;
  /** The connection's `application_name`, as `pg_stat_activity` shows it (default `nestjs-crud-api changes`). */
  applicationName?: string;
}

/** `redisChangeTransport`'s options: Redis pub/sub over a subscriber and a publisher connection. */
export interface RedisChangeTransportOptions extends ChangeTransportOptionsBase {
  /** `redis://[user:password@]host:port[/db]`, or `rediss://` for TLS. */
  url: string;
  /**
   * The connections' names, as `CLIENT LIST` shows them, followed by `:subscriber` or
   * `:publisher` (default `nestjs-crud-api-changes`).
   */
  connectionName?: string;
}
