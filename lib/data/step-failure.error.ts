/**
 * The failure of one operation of a multi-operation request (an RPC sequential transaction, a JSON:API
 * atomic request), carrying its index. Thrown out of the transaction callback it rolls every step back:
 * unlike a bare RESULT_NOT_READABLE, which the policy engine lets commit, so an error answer to a
 * transaction always means nothing was written.
 */
export class StepFailure extends Error {
  constructor(
    readonly index: number,
    override readonly cause: unknown,
  ) {
    super(`Operation ${index} failed`);
    this.name = 'StepFailure';
  }
}

function failureAt(index: number, error: unknown): StepFailure {
  return error instanceof StepFailure ? error : new StepFailure(index, error);
}

/** Runs `fn` as operation `index`: whatever it throws becomes that operation's `StepFailure`. */
export async function atStep<T>(index: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw failureAt(index, error);
  }
}

/** `atStep` for synchronous work (parsing a request before any transaction starts). */
export function atStepSync<T>(index: number, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw failureAt(index, error);
  }
}
