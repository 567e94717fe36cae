import type { PrismaClientLike } from './prisma-client-like.js';

type Settle = { commit(): void; rollback(error: unknown): void };

/**
 * An interactive transaction begun when its `client` is first used. A write whose hooks and checks
 * query nothing then runs alone: one statement, atomic by itself, without the round trips of BEGIN
 * and COMMIT. Once anything uses `client`, the transaction begins, and statements sent on
 * `current()` from then on run in it.
 */
export class LazyTransaction {
  /** The transaction's client as hooks see it: any model operation or `$` method begins it. */
  readonly client: PrismaClientLike;
  private tx?: PrismaClientLike;
  private begun?: Promise<PrismaClientLike>;
  private settle?: Settle;
  private outcome?: Promise<unknown>;

  constructor(
    private readonly base: PrismaClientLike,
    private readonly options?: unknown,
  ) {
    this.client = deferredClient(() => this.begin());
  }

  /** Where a statement runs now: in the transaction once it has begun, on the base client before. */
  current(): PrismaClientLike {
    return this.tx ?? this.base;
  }

  /** Runs `work`, then commits the transaction if it began (rolls it back if `work` failed). */
  async run<T>(work: (transaction: LazyTransaction) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await work(this);
    } catch (error) {
      if (this.begun) {
        this.settle?.rollback(error);
        await this.outcome!.catch(() => undefined);
      }
      throw error;
    }
    if (this.begun) {
      this.settle!.commit();
      await this.outcome;
    }
    return result;
  }

  private begin(): Promise<PrismaClientLike> {
    this.begun ??= new Promise<PrismaClientLike>((resolve, reject) => {
      this.outcome = this.base.$transaction((tx: PrismaClientLike) => {
        this.tx = tx;
        resolve(tx);
        return new Promise<void>((commit, rollback) => {
          this.settle = { commit, rollback };
        });
      }, this.options);
      // A transaction that never began (no connection in time) fails the statement that asked for it.
      this.outcome.catch(reject);
    });
    return this.begun;
  }
}

/** A client whose every call waits for `begin` and then runs on the client it gives. */
function deferredClient(begin: () => Promise<PrismaClientLike>): PrismaClientLike {
  const call =
    (name: string, method?: string) =>
    (...args: unknown[]) =>
      begin().then((tx) => (method === undefined ? tx[name](...args) : tx[name][method](...args)));
  const delegates = new Map<string, object>();
  return new Proxy(Object.create(null), {
    get(_, name) {
      // Not a thenable: `await client` must not begin anything.
      if (typeof name !== 'string' || name === 'then') return undefined;
      if (name.startsWith('$')) return call(name);
      const delegate =
        delegates.get(name) ??
        new Proxy(Object.create(null) as object, {
          get: (__, method) => (typeof method === 'string' && method !== 'then' ? call(name, method) : undefined),
        });
      delegates.set(name, delegate);
      return delegate;
    },
  }) as PrismaClientLike;
}
