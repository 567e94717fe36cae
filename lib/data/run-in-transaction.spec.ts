import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { runInBatchTransaction } from './run-in-transaction.js';
import { StepFailure } from './step-failure.error.js';

const settings = { maxOperations: 20, timeout: 5000, maxWait: 2000 };
type Call = (client: PrismaClientLike) => Promise<unknown>;

/** Lazy like a PrismaPromise: runs only when awaited. */
const lazy = (run: () => unknown): Promise<unknown> =>
  ({ then: (ok: never, ko: never) => Promise.resolve().then(run).then(ok, ko) }) as never;

/**
 * A client whose batch transaction settles as given and whose interactive transaction runs its
 * callback with itself, recording both.
 */
function fakeClient(settleBatch: (queries: readonly unknown[]) => Promise<unknown[]>) {
  const seen = { batches: [] as { queries: readonly unknown[]; options: unknown }[], interactive: 0 };
  const client = {
    $transaction: (work: readonly unknown[] | ((tx: unknown) => Promise<unknown>), options?: unknown) => {
      if (typeof work === 'function') {
        seen.interactive += 1;
        return work(client);
      }
      seen.batches.push({ queries: work, options });
      return settleBatch(work);
    },
  };
  return { client: client as never, seen };
}

const fails = (error: unknown) => () => Promise.reject(error);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('runInBatchTransaction', () => {
  it('hands every call’s query to one batch $transaction, with the settings, and answers its results', async () => {
    const { client, seen } = fakeClient(async (queries) => queries.map((query) => `done ${String(query)}`));
    const calls = [() => 'a', () => 'b'] as unknown as Call[];
    const results = await runInBatchTransaction(client, { ...settings, isolationLevel: 'Serializable' }, calls);
    expect(seen.batches).toEqual([
      { queries: ['a', 'b'], options: { timeout: 5000, maxWait: 2000, isolationLevel: 'Serializable' } },
    ]);
    expect(seen.interactive).toBe(0);
    expect(results).toEqual(['done a', 'done b']);
  });

  it('turns the failing query’s batchRequestIdx into that step’s StepFailure', async () => {
    const error = Object.assign(new Error('Record to update not found.'), { code: 'P2025', batchRequestIdx: 2 });
    const { client, seen } = fakeClient(fails(error));
    const thrown = await failure(
      runInBatchTransaction(client, settings, [() => 0, () => 1, () => 2] as unknown as Call[]),
    );
    expect(thrown).toBeInstanceOf(StepFailure);
    expect(thrown).toMatchObject({ index: 2, cause: error });
    expect(seen.interactive).toBe(0);
  });

  it('names the only step of a one-step batch without running it again', async () => {
    const error = Object.assign(new Error('Unique constraint failed'), { code: 'P2002' });
    const { client, seen } = fakeClient(fails(error));
    const thrown = await failure(runInBatchTransaction(client, settings, [() => 0] as unknown as Call[]));
    expect(thrown).toMatchObject({ index: 0, cause: error });
    expect(seen.interactive).toBe(0);
  });

  it('runs the steps again interactively when the batch error names no step, and answers what that run says', async () => {
    const error = Object.assign(new Error('Record to update not found.'), { code: 'P2025' });
    const { client, seen } = fakeClient(fails(error));
    const ran: number[] = [];
    const calls = [0, 1, 2].map((step) => () => {
      ran.push(step);
      return lazy(() => {
        if (step === 1) throw error;
        return step;
      });
    }) as Call[];
    const thrown = await failure(runInBatchTransaction(client, settings, calls));
    expect(seen.interactive).toBe(1);
    expect(thrown).toMatchObject({ index: 1, cause: error });
    // The batch built every query; the interactive run stopped at the failing step.
    expect(ran).toEqual([0, 1, 2, 0, 1]);
  });

  it('answers the interactive run’s results when the data changed after the batch failed', async () => {
    const { client, seen } = fakeClient(fails(new Error('Validation failed')));
    const results = await runInBatchTransaction(client, settings, [
      () => Promise.resolve('x'),
      () => Promise.resolve('y'),
    ] as unknown as Call[]);
    expect(seen.interactive).toBe(1);
    expect(results).toEqual(['x', 'y']);
  });

  it.each([
    ['a transaction error (P2028)', Object.assign(new Error('Transaction already closed'), { code: 'P2028' })],
    ['a connection error (P1001)', Object.assign(new Error('Cannot reach the database'), { code: 'P1001' })],
    ['a thrown non-Error', 'text'],
  ])('passes %s through unchanged, running nothing again', async (_what, thrown) => {
    const { client, seen } = fakeClient(fails(thrown));
    expect(await failure(runInBatchTransaction(client, settings, [() => 0, () => 1] as unknown as Call[]))).toBe(
      thrown,
    );
    expect(seen.interactive).toBe(0);
  });
});
