import { setImmediate as nextMacrotask } from 'node:timers/promises';

/**
 * Calls `each` on every item, `size` at a time, letting the event loop run between slices: work
 * on thousands of items (a heartbeat to every open stream) never holds the loop for all of them.
 */
export async function inSlices<T>(items: Iterable<T>, size: number, each: (item: T) => void): Promise<void> {
  let done = 0;
  for (const item of items) {
    each(item);
    if (++done % size === 0) await nextMacrotask();
  }
}
