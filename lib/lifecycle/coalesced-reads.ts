/**
 * Identical reads that arrive together run once (`coalesceReads` option). A read whose key no
 * other read of this turn of the event loop had, and no run under way has, starts at once: a lone
 * read pays nothing. One that comes after it cannot join that run (which may have started before
 * a commit this request must see), so it waits for the end of the turn (`setImmediate`: after the
 * I/O callbacks of the turn, in which the other requests that came in with it are parsed), then
 * runs once for every read of that key that joined it meanwhile.
 *
 * Each run starts after every request it answers arrived, so each gets an answer it could have got
 * alone: nothing committed before a request arrived is missing from its answer.
 */
export class CoalescedReads {
  private readonly waiting = new Map<string, Promise<unknown>>();
  /** Runs under way per key. */
  private readonly running = new Map<string, number>();
  /**
   * Keys whose reads started since the last `setImmediate` phase: a read may end within its turn
   * (SQLite), and the GETs that came with it still share one read.
   */
  private readonly startedThisTurn = new Set<string>();

  run<T>(key: string, read: () => Promise<T>): Promise<T> {
    const joined = this.waiting.get(key) as Promise<T> | undefined;
    if (joined) return joined;
    if (!this.running.has(key) && !this.startedThisTurn.has(key)) return this.start(key, read);
    const once = new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        this.waiting.delete(key);
        this.start(key, read).then(resolve, reject);
      });
    });
    this.waiting.set(key, once);
    return once;
  }

  private start<T>(key: string, read: () => Promise<T>): Promise<T> {
    if (this.startedThisTurn.size === 0) setImmediate(() => this.startedThisTurn.clear());
    this.startedThisTurn.add(key);
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    const done = (): void => {
      const left = this.running.get(key)! - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    };
    const answer = read();
    answer.then(done, done);
    return answer;
  }
}
