/**
 * Identical reads that arrive together run once (`coalesceReads` option). The first read of a key
 * waits for the end of the event loop's current turn (`setImmediate`: after the I/O callbacks of
 * the turn, in which the other requests that came in with it are parsed), then runs once for
 * every read of that key that joined it meanwhile. A read that comes later starts a run of its own.
 *
 * Each run starts after every request it answers arrived, so each gets an answer it could have got
 * alone: nothing committed before a request arrived is missing from its answer.
 */
export class CoalescedReads {
  private readonly waiting = new Map<string, Promise<unknown>>();

  run<T>(key: string, read: () => Promise<T>): Promise<T> {
    const joined = this.waiting.get(key) as Promise<T> | undefined;
    if (joined) return joined;
    const once = new Promise<T>((resolve, reject) => {
      setImmediate(() => {
        this.waiting.delete(key);
        read().then(resolve, reject);
      });
    });
    this.waiting.set(key, once);
    return once;
  }
}
