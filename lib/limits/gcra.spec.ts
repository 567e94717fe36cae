import { seededRandom } from '../../test/support/seeded-random.js';
import { type BucketLimit, bucketTimes, takeUnits } from './gcra.js';

const limit: BucketLimit = { units: 5, windowMs: 1000 };

/** Takes in order at the given times, keeping the state as a store would. */
function run(steps: [now: number, cost: number][], bucket: BucketLimit = limit) {
  let tat: number | undefined;
  return steps.map(([now, cost]) => {
    const taken = takeUnits(tat, now, cost, bucket);
    tat = taken.tat ?? tat;
    return taken;
  });
}

describe('takeUnits', () => {
  it('lets a full bucket through at once, then one unit per interval', () => {
    const burst = run([...Array(6)].map(() => [0, 1] as [number, number]));
    expect(burst.map((taken) => taken.allowed)).toEqual([true, true, true, true, true, false]);
    expect(burst.map((taken) => taken.remaining)).toEqual([4, 3, 2, 1, 0, 0]);
    expect(burst[4]).toEqual({ allowed: true, remaining: 0, retryAfterMs: 0, resetMs: 1000, tat: 1000 });
    expect(burst[5]).toEqual({ allowed: false, remaining: 0, retryAfterMs: 200, resetMs: 1000 });
    const refilled = run([...Array(5).fill([0, 1]), [199, 1], [200, 1], [200, 1]] as [number, number][]);
    expect(refilled.slice(5).map((taken) => taken.allowed)).toEqual([false, true, false]);
  });

  it('adds up costs, and refuses a cost larger than the bucket with the state unchanged', () => {
    const [three, two, one] = run([
      [0, 3],
      [0, 2],
      [0, 1],
    ]);
    expect([three!.remaining, two!.remaining, one!.allowed]).toEqual([2, 0, false]);
    expect(takeUnits(undefined, 0, 6, limit)).toEqual({ allowed: false, remaining: 5, retryAfterMs: 1000, resetMs: 0 });
  });

  it('passes a cost of 0 without changing the state', () => {
    expect(takeUnits(600, 0, 0, limit)).toEqual({ allowed: true, remaining: 2, retryAfterMs: 0, resetMs: 600 });
  });

  it('treats a past tat as a full bucket', () => {
    expect(takeUnits(100, 5000, 1, limit)).toMatchObject({ allowed: true, remaining: 4, tat: 5200 });
  });

  it('rounds the interval up to a whole millisecond and still lets `units` through at once', () => {
    const sevenPerMinute = { units: 7, windowMs: 60_000 };
    expect(bucketTimes(sevenPerMinute)).toEqual({ intervalMs: 8572, fullMs: 60_004 });
    const burst = run(
      [...Array(8)].map(() => [1_700_000_000_000, 1] as [number, number]),
      sevenPerMinute,
    );
    expect(burst.filter((taken) => taken.allowed)).toHaveLength(7);
  });

  // A reference bucket holding its credit in milliseconds of refill (one unit is one interval),
  // refilled continuously and capped at full: exact integers, so every answer must match exactly.
  it.each([1, 2, 3, 4, 5, 6, 7, 8])('matches a token count with continuous refill (seed %i)', (seed) => {
    const random = seededRandom(seed);
    const units = 1 + random.int(20);
    const bucket = { units, windowMs: units + random.int(units * 500) };
    const { intervalMs, fullMs } = bucketTimes(bucket);
    let credit = fullMs;
    let now = 1_700_000_000_000 + random.int(1000);
    let tat: number | undefined;
    for (let step = 0; step < 500; step++) {
      const elapsed = random.pick([0, 0, random.int(intervalMs), random.int(fullMs * 2)]);
      now += elapsed;
      credit = Math.min(fullMs, credit + elapsed);
      const cost = random.pick([0, 1, 1, 1, 2, random.int(units + 2)]);
      const taken = takeUnits(tat, now, cost, bucket);
      tat = taken.tat ?? tat;
      const allowed = cost <= units && credit >= cost * intervalMs;
      if (allowed) credit -= cost * intervalMs;
      const expected = {
        allowed,
        remaining: Math.floor(credit / intervalMs),
        retryAfterMs: allowed ? 0 : cost > units ? bucket.windowMs : cost * intervalMs - credit,
        resetMs: fullMs - credit,
      };
      expect({ step, ...taken, tat: undefined }).toEqual({ step, ...expected, tat: undefined });
    }
  });
});
