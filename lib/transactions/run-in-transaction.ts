import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { atStep } from './step-failure.js';

/**
 * Runs `count` operations one after the other in one interactive transaction of the request's client
 * (a policy client runs every check of every step inside it), with the `transactions` option's
 * timeout, maxWait and isolation level. The first failing step rolls everything back and is thrown
 * as its `StepFailure`.
 */
export function runInTransaction<T>(
  client: PrismaClientLike,
  settings: ResolvedCrudApiOptions['transactions'],
  count: number,
  step: (tx: PrismaClientLike, index: number) => Promise<T>,
): Promise<T[]> {
  const { timeout, maxWait, isolationLevel } = settings;
  return client.$transaction(
    async (tx: PrismaClientLike) => {
      const results: T[] = [];
      for (let index = 0; index < count; index += 1) results.push(await atStep(index, () => step(tx, index)));
      return results;
    },
    { timeout, maxWait, ...(isolationLevel ? { isolationLevel } : {}) },
  );
}
