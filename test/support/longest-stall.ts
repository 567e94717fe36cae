import { type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds of the garbage collector's pauses that fall between `from` and `to`. */
function collectorTime(pauses: readonly PerformanceEntry[], from: number, to: number): number {
  return pauses.reduce(
    (sum, pause) => sum + Math.max(0, Math.min(to, pause.startTime + pause.duration) - Math.max(from, pause.startTime)),
    0,
  );
}

/**
 * Runs `work` and reports the longest gap between ticks of a 5 ms timer meanwhile, in
 * milliseconds: how long the process could not run anything else. The garbage collector's pauses
 * are not counted: a test runner's heap, grown over many suites, pauses for its own reasons.
 */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ stallMs: number; result: PromiseSettledResult<T> }> {
  const pauses: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => pauses.push(...list.getEntries()));
  observer.observe({ entryTypes: ['gc'] });
  const ticks: number[] = [performance.now()];
  const ticker = setInterval(() => ticks.push(performance.now()), 5);
  const [result] = await Promise.allSettled([work()]);
  // One more tick measures a stall at the very end of the work.
  await wait(20);
  clearInterval(ticker);
  // GC entries are delivered asynchronously: let the last ones arrive.
  await wait(0);
  observer.disconnect();
  let stallMs = 0;
  for (let index = 1; index < ticks.length; index++) {
    const [from, to] = [ticks[index - 1]!, ticks[index]!];
    stallMs = Math.max(stallMs, to - from - collectorTime(pauses, from, to));
  }
  return { stallMs, result: result! };
}
