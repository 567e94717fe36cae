/** The `error` member of an RPC error answer, as the server writes it. */
export interface RpcErrorBody {
  message: string;
  /** The module's error code (`forbidden`, `not-found`, `invalid-argument`...), on every error the server answers. */
  errorCode?: string;
  /** Prisma's error code (`P2002`, `P2025`...), with `orm`. */
  code?: string;
  /** Set when Prisma raised the error. */
  orm?: boolean;
  /** Set when an access policy refused the call; `reason` says which check. */
  rejectedByPolicy?: boolean;
  reason?: string;
  meta?: Record<string, unknown>;
  /** A write the application's rules refused: each problem, at its argument path (`data.posts.create[0].title`). */
  issues?: { path: string; message: string; code: string }[];
}

/** A call the server answered with an error status: its status and the `error` body it sent. */
export class RpcClientError extends Error {
  override readonly name = 'RpcClientError';

  constructor(
    readonly status: number,
    readonly error: RpcErrorBody,
  ) {
    super(error.message);
  }

  /** Prisma's code when Prisma raised the error (`P2025`), else the module's (`forbidden`); undefined only for an answer not from the module (a proxy's page). */
  get code(): string | undefined {
    return this.error.code ?? this.error.errorCode;
  }

  /** The module's error code (`forbidden`, `not-found`, `invalid-argument`...), whatever raised the error. */
  get errorCode(): string | undefined {
    return this.error.errorCode;
  }

  get rejectedByPolicy(): boolean {
    return this.error.rejectedByPolicy === true;
  }
}

function isErrorBody(value: unknown): value is RpcErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as RpcErrorBody).message === 'string';
}

/**
 * The error of a non-2xx answer. A body without the server's `{ error }` shape (a proxy's HTML
 * page, an empty 502) still becomes an RpcClientError, its text as the message.
 */
export function toRpcClientError(status: number, text: string): RpcClientError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = (parsed as { error?: unknown } | undefined)?.error;
  if (isErrorBody(error)) return new RpcClientError(status, error);
  return new RpcClientError(status, { message: text.trim() || `HTTP ${status}` });
}
