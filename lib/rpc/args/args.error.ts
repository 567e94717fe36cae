import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import { type ArgPath, toPointer } from './arg-path.js';

/** Where the arguments travelled: the `q` query parameter or the JSON body. */
export type ArgsOrigin = 'query' | 'body';

/**
 * The one error of the argument validator: 400 `invalid-argument`, the path in the message and in
 * `source` (a pointer into the body, or the `q` parameter). Every rejection goes through here, so
 * a hidden field and a field that does not exist answer alike.
 */
export function argsError(origin: ArgsOrigin, path: ArgPath | undefined, problem: string): CrudApiError {
  return new ArgsError(origin, path, problem);
}

/** The argument validator's error, keeping the problem and its path apart for a write's value issues. */
export class ArgsError extends CrudApiError {
  constructor(
    origin: ArgsOrigin,
    readonly path: ArgPath | undefined,
    readonly problem: string,
  ) {
    const pointer = toPointer(path);
    const source = origin === 'body' ? { pointer } : { parameter: 'q' };
    super('invalid-argument', `Invalid argument at ${quoteInput(pointer || '/')}: ${problem}.`, { source });
  }
}

/** The message for a key that is not part of the grammar at its position (or a hidden field). */
export function unknownKey(key: string): string {
  return `unknown key ${quoteInput(key)}`;
}
