import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { atStep, StepFailure } from './step-failure.error.js';

type TransactionSettings = ResolvedCrudApiOptions['transactions'];

/** The `transactions` option as Prisma's interactive transaction options: bounds and isolation level. */
export function transactionOptions(settings: TransactionSettings) {
  const { isolationLevel } = settings;
  return { ...transactionBounds(settings), ...(isolationLevel ? { isolationLevel } : {}) };
}

/**
 * The `transactions` option's bounds, for every interactive transaction the module opens: `maxWait`
 * also bounds the wait for a pooled connection, `timeout` rolls back a transaction that runs too long.
 */
export function transactionBounds({ timeout, maxWait }: TransactionSettings): { timeout: number; maxWait: number } {
  return { timeout, maxWait };
}

/**
 * Runs `count` operations one after the other in one interactive transaction of the request's client
 * (a policy client runs every check of every step inside it), with the `transactions` option's
 * timeout, maxWait and isolation level. The first failing step rolls everything back and is thrown
 * as its `StepFailure`.
 */
export function runInTransaction<T>(
  client: PrismaClientLike,
  settings: TransactionSettings,
  count: number,
  step: (tx: PrismaClientLike, index: number) => Promise<T>,
): Promise<T[]> {
  return client.$transaction(async (tx: PrismaClientLike) => {
    const results: T[] = [];
    for (let index = 0; index < count; index += 1) results.push(await atStep(index, () => step(tx, index)));
    return results;
  }, transactionOptions(settings));
}

/**
 * The same for operations that need nothing from JavaScript between them, on a plain Prisma client:
 * one batch transaction (`$transaction([...])`), which costs Prisma less CPU than an interactive
 * one, so it costs what a hand-written batch costs. Each call must return the client's lazy PrismaPromise (an eager promise would run outside
 * the transaction).
 *
 * A failed batch wrote nothing. Its failing step is the error's `batchRequestIdx` where Prisma sets it,
 * the only step of a one-step batch; otherwise (Prisma 7's driver adapters do not set it) the steps
 * run again in an interactive transaction, which names the failing step, or commits if the data has
 * changed meanwhile, as any transaction run at that moment would. Connection and transaction errors
 * belong to no step and are thrown as they are.
 */
export async function runInBatchTransaction<T>(
  client: PrismaClientLike,
  settings: TransactionSettings,
  calls: readonly ((client: PrismaClientLike) => Promise<T>)[],
): Promise<T[]> {
  try {
    return await client.$transaction(
      calls.map((call) => call(client)),
      transactionOptions(settings),
    );
  } catch (error) {
    if (!isStepError(error)) throw error;
    const index = (error as { batchRequestIdx?: unknown }).batchRequestIdx ?? (calls.length === 1 ? 0 : undefined);
    if (typeof index === 'number') throw new StepFailure(index, error);
    return runInTransaction(client, settings, calls.length, (tx, step) => calls[step]!(tx));
  }
}

/** P1xxx (connection, timeouts) and P2028 (the transaction itself) come from the database, not from a step. */
function isStepError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && !(typeof code === 'string' && (code.startsWith('P1') || code === 'P2028'));
}
