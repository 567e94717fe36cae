import { RPC_OPERATIONS, SOFT_DELETE_RPC_OPERATIONS } from '../rpc/rpc-operations.js';
import { FLUENT_OPERATIONS, fluentArgs, fluentResult, type FluentStep } from './fluent-call.js';
import { randomUuid } from './idempotency-key.js';

/** What one client call asks the server for. */
export interface RpcCall {
  /** The model's name in URLs and on the Prisma client (`post`). */
  model: string;
  operation: string;
  args?: unknown;
  fluent: readonly FluentStep[];
  /** The caller's own `Idempotency-Key` for the call (`withIdempotencyKey`). */
  idempotencyKey?: string;
  /** A read (or hard delete) that includes the deleted rows the caller may read (`withDeleted`). */
  withDeleted?: true;
}

/** Sends one call's request and answers its raw result; a write asks `idempotencyKey` for the key it sends. */
export type RpcSend = (call: RpcCall, idempotencyKey: () => string) => Promise<unknown>;

/** The arguments the server receives for a call (its fluent path folded into `select`). */
export function wireArgs(call: RpcCall): unknown {
  return fluentArgs(call.args, call.fluent);
}

/** The call's result from the server's answer to `wireArgs`. */
export function callResult(call: RpcCall, raw: unknown): unknown {
  return fluentResult(raw, call.fluent);
}

/**
 * A lazy promise, like Prisma's: nothing is sent until it is awaited (so `$transaction([...])`
 * and the query hooks can take calls without running them), then once.
 */
export class RpcPromise<T = unknown> implements PromiseLike<T> {
  readonly [Symbol.toStringTag] = 'PrismaPromise';
  private started?: Promise<T>;
  private key?: string;

  constructor(
    readonly call: RpcCall,
    readonly send: RpcSend,
  ) {}

  /**
   * The `Idempotency-Key` the call sends when it writes: the caller's, or a random UUID made once,
   * so that sending the call again is a retry of the same write, which the server answers once.
   */
  get idempotencyKey(): string {
    return (this.key ??= this.call.idempotencyKey ?? randomUuid());
  }

  /**
   * Sends the call afresh, whether or not it ran before (a query hook's refetch). A write sends its
   * `idempotencyKey` every time: executing it again retries the same write.
   */
  execute(): Promise<T> {
    return this.send(this.call, () => this.idempotencyKey).then((raw) => callResult(this.call, raw) as T);
  }

  then<R1 = T, R2 = never>(
    onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.started ??= this.execute();
    return this.started.then(onFulfilled, onRejected);
  }

  catch<R = never>(onRejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onRejected);
  }

  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.then().finally(onFinally);
  }
}

/** Names tools probe objects for (JSON, test matchers, DOM checks): never relation methods. */
const NOT_RELATIONS: ReadonlySet<string> = new Set(['toJSON', 'asymmetricMatch', 'nodeType', 'tagName', '$$typeof']);

/**
 * A call's promise; on single-record operations any other property is a relation method of the
 * fluent API, as on Prisma's `Prisma__PostClient`.
 */
export function createRpcPromise(call: RpcCall, send: RpcSend): RpcPromise {
  const promise = new RpcPromise(call, send);
  if (!FLUENT_OPERATIONS.has(call.operation)) return promise;
  return new Proxy(promise, {
    get(target, property) {
      if (typeof property !== 'string' || property in target || NOT_RELATIONS.has(property)) {
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (args?: Record<string, unknown>) =>
        createRpcPromise({ ...call, fluent: [...call.fluent, { field: property, args }] }, send);
    },
  });
}

/** The RpcPromise behind a call of an RPC client; anything else is refused by name. */
export function asRpcPromise<T>(call: PromiseLike<T>, taker: string): RpcPromise<T> {
  if (!(call instanceof RpcPromise))
    throw new TypeError(`${taker} takes a call of an RPC client, such as client.post.findMany(args).`);
  return call as RpcPromise<T>;
}

/**
 * The same call sending the caller's `Idempotency-Key` when it writes (a key kept across a page
 * reload, say), in place of the random one the client makes per call.
 */
export function withIdempotencyKey<C extends PromiseLike<unknown>>(call: C, key: string): C {
  const rpc = asRpcPromise(call, 'withIdempotencyKey');
  return createRpcPromise({ ...rpc.call, idempotencyKey: key }, rpc.send) as unknown as C;
}

/** Whether an operation takes `withDeleted`: every read, and a hard delete. */
const takesWithDeleted = (operation: string) =>
  (RPC_OPERATIONS.get(operation) ?? SOFT_DELETE_RPC_OPERATIONS.get(operation))?.withDeleted === true;

/**
 * The same call including the deleted rows of soft-deleted models that the caller's `readDeleted`
 * rule permits (`?withDeleted=true`, docs/soft-delete.md): a read (any read operation, fluent
 * calls too) answers them, a `hardDelete` can purge one. Another write throws a `TypeError`, as does
 * such a call given to `$transaction` (whose route takes no `withDeleted`); the server refuses the
 * parameter (400) when the application soft-deletes no model.
 */
export function withDeleted<C extends PromiseLike<unknown>>(call: C): C {
  const rpc = asRpcPromise(call, 'withDeleted');
  if (!takesWithDeleted(rpc.call.operation))
    throw new TypeError(`withDeleted takes a read (findMany, count...) or a hardDelete, not ${rpc.call.operation}.`);
  return createRpcPromise({ ...rpc.call, withDeleted: true }, rpc.send) as unknown as C;
}
