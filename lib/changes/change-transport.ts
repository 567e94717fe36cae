/**
 * Which models changed in a commit, as one instance tells the others. `'*'` means "anything may
 * have changed": a transport says so after it lost its connection, since notices may have been
 * missed meanwhile.
 */
export interface ChangeNotice {
  models: readonly string[] | '*';
  /** The instance that committed (`ChangeTransport` users ignore their own notices). */
  origin: string;
}

/**
 * Carries change notices between application instances (live queries re-run on every instance
 * whose subscribers read a changed model). Notices are hints, never data: every subscriber's query
 * runs again under its own policies, so a transport never carries a row.
 */
export interface ChangeTransport {
  /** Starts receiving the notices other instances publish; resolves once it listens. */
  start(receive: (notice: ChangeNotice) => void): Promise<void>;
  /** Tells the other instances; a failure is the caller's to log (local subscribers are already told). */
  publish(notice: ChangeNotice): Promise<void>;
  /** Stops listening and releases its connections. */
  close(): Promise<void>;
  /**
   * Whether it receives the other instances' notices now: false once it knows its connection lost,
   * until it listens again (their commits go unheard meanwhile). A transport without it is taken
   * to be always listening.
   */
  readonly listening?: boolean;
}
