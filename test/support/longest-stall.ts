const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` and reports the longest gap between ticks of a 5 ms timer meanwhile, in
 * milliseconds: how long the process could not run anything else.
 */
export async function longestStall<T>(
  work: () => Promise<T>,
): Promise<{ stallMs: number; result: PromiseSettledResult<T> }> {
  let last = performance.now();
  let stallMs = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    stallMs = Math.max(stallMs, now - last);
    last = now;
  }, 5);
  const [result] = await Promise.allSettled([work()]);
  // One more tick measures a stall at the very end of the work.
  await wait(20);
  clearInterval(ticker);
  return { stallMs, result: result! };
}
