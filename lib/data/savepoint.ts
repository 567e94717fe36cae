import type { PrismaClientLike } from '../prisma/prisma-client-like.js';

/** Savepoint names, unique within the process, so nested ones never share one. */
let serial = 0;

/**
 * Runs `work` on the interactive transaction `tx` within a savepoint, so that a failure can still
 * be explained by queries in it: after a failed statement PostgreSQL answers nothing more in a
 * transaction until it is rolled back to a savepoint. On failure the transaction goes back to the
 * savepoint, `explain` runs (it may throw the explanation), then the failure is thrown. When even
 * the rollback fails (the transaction has ended), the failure is thrown unexplained. The statements
 * are the same on PostgreSQL, MySQL/MariaDB and SQLite.
 */
export async function explainedInSavepoint<T>(
  tx: PrismaClientLike,
  work: () => Promise<T>,
  explain: (error: unknown) => Promise<void>,
): Promise<T> {
  const name = `crud_api_${++serial}`;
  await tx.$executeRawUnsafe(`SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await work();
  } catch (error) {
    const usable = await tx.$executeRawUnsafe(`ROLLBACK TO SAVEPOINT ${name}`).then(
      () => true,
      () => false,
    );
    if (usable) await explain(error);
    throw error;
  }
  await tx.$executeRawUnsafe(`RELEASE SAVEPOINT ${name}`);
  return result;
}
