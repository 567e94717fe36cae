import { prismaOperation } from '../metadata/prisma-operations.js';
import { FLUENT_OPERATIONS, fluentArgs, fluentResult, type FluentStep } from './fluent-call.js';
import { randomUuid } from './idempotency-key.js';
import type { RpcClientError } from './rpc-client.error.js';

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

/** How `liveCall` reports a read's results, failures and reconnections. */
export interface LiveCallOptions<T = unknown> {
  /** Stops following the read: the connection is closed. */
  signal?: AbortSignal;
  /** The read's result, decoded as the call answers it: at once, then each time it changes. */
  onResult: (result: T) => void;
  /**
   * Each failure: a refusal (the status the server answered), or with status 0 an error the
   * server reported on the stream or a lost connection. `willRetry` is false once it ended.
   */
  onError?: (error: RpcClientError, willRetry: boolean) => void;
  /** A connection opened again after one was lost. */
  onReconnect?: () => void;
}

/** How a client's calls reach the server. */
export interface RpcTransport {
  /** Sends one call's request and answers its raw result; a write asks `idempotencyKey` for the key it sends. */
  send(call: RpcCall, idempotencyKey: () => string): Promise<unknown>;
  /** Follows a read's results from the server's live stream until `signal` aborts or the server refuses it. */
  live(call: RpcCall, options: LiveCallOptions): Promise<void>;
}

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
    readonly transport: RpcTransport,
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
    return this.transport.send(this.call, () => this.idempotencyKey).then((raw) => callResult(this.call, raw) as T);
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
export function createRpcPromise(call: RpcCall, transport: RpcTransport): RpcPromise {
  const promise = new RpcPromise(call, transport);
  if (!FLUENT_OPERATIONS.has(call.operation)) return promise;
  return new Proxy(promise, {
    get(target, property) {
      if (typeof property !== 'string' || property in target || NOT_RELATIONS.has(property)) {
        const value = Reflect.get(target, property, target);
        return typeof value === 'function' ? value.bind(target) : value;
      }
      return (args?: Record<string, unknown>) =>
        createRpcPromise({ ...call, fluent: [...call.fluent, { field: property, args }] }, transport);
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
  return createRpcPromise({ ...rpc.call, idempotencyKey: key }, rpc.transport) as unknown as C;
}

/** Whether an operation takes `withDeleted`: every read, and a hard delete. */
const takesWithDeleted = (operation: string) => prismaOperation(operation)?.withDeleted === true;

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
  return createRpcPromise({ ...rpc.call, withDeleted: true }, rpc.transport) as unknown as C;
}

/**
 * Follows a read (`client.post.findMany(args)`, any read operation, fluent and `withDeleted` calls
 * too) from the server's live stream: `onResult` receives its result at once, then each time it
 * changes, until `signal` aborts or the server refuses the subscription (docs/live.md). Lost
 * connections are opened again. Resolves once it ended; a write throws a `TypeError`.
 */
export function liveCall<T>(call: PromiseLike<T>, options: LiveCallOptions<T>): Promise<void> {
  const rpc = asRpcPromise(call, 'liveCall');
  return rpc.transport.live(rpc.call, {
    ...options,
    onResult: (raw) => options.onResult(callResult(rpc.call, raw) as T),
  });
}
