import type { PrismaClientLike } from '../prisma/prisma-client-like.js';

/**
 * An interactive transaction's client on which `$transaction` runs its work in that transaction
 * (Prisma's transaction clients have no `$transaction`): the services open transactions of their
 * own, and a request that runs in one transaction (an idempotent write) runs them all in it.
 */
export function joinTransaction(tx: PrismaClientLike): PrismaClientLike {
  const joined: PrismaClientLike = new Proxy(tx, {
    get(target, property) {
      if (property === '$transaction') return transaction;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  async function transaction(work: unknown): Promise<unknown> {
    if (typeof work === 'function') return work(joined);
    const results: unknown[] = [];
    for (const query of work as Iterable<Promise<unknown>>) results.push(await query);
    return results;
  }
  return joined;
}
