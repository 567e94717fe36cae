// When the seeded history of the asOf scenarios happened: fixed, so that their requests are the same
// on every run (bench/dataset/seed-history.ts writes it, bench/scenarios.ts reads as of it).

/** Changes the asOf scenarios' history holds: updates of the seeded posts. */
export const HISTORY_SIZE = 100_000;

/** The last seeded change's time; they are one second apart before it. */
const HISTORY_END = Date.UTC(2025, 11, 31);

/** When change `index` (0 … HISTORY_SIZE - 1, in the order recorded) happened. */
export const historyTimeAt = (index: number): Date => new Date(HISTORY_END - (HISTORY_SIZE - 1 - index) * 1000);

/** The time after which exactly `changes` seeded changes were recorded. */
export const historyTimeBefore = (changes: number): Date => historyTimeAt(HISTORY_SIZE - 1 - changes);
