import { COUNT_STRATEGIES } from '../../options/crud-api.constants.js';
import type { CountStrategy } from '../../options/crud-api-options.interface.js';
import { preferenceValue } from '../../shared/prefer.js';

/** The preference token of RFC 7240's `Prefer` header that asks for a strategy (PostgREST's name). */
const COUNT_PREFERENCE = 'count';

function isCountStrategy(value: string): value is CountStrategy {
  return (COUNT_STRATEGIES as readonly string[]).includes(value);
}

/**
 * The strategy a request asks for with `Prefer: count=exact|estimated|none`, if any. Several
 * `Prefer` headers arrive joined by commas; the first `count` preference counts. A value this
 * module does not know is ignored, as RFC 7240 asks of preferences a server cannot honour (the
 * response then has no `Preference-Applied` for it, and `meta.count` says what was done).
 */
export function preferredCount(prefer: string | string[] | undefined): CountStrategy | undefined {
  const value = preferenceValue(prefer, COUNT_PREFERENCE);
  return value !== undefined && isCountStrategy(value) ? value : undefined;
}

/** The strategy a collection request gets, and whether its `Prefer` header chose it. */
export interface CountChoice {
  strategy: CountStrategy;
  preferred: boolean;
}

/**
 * `Prefer: count=…` first, else the module's `count` option for offset pages. Cursor pages count
 * only when asked: keyset pagination exists so that a page costs the same at any depth and size.
 */
export function chooseCount(
  prefer: string | string[] | undefined,
  option: CountStrategy,
  cursor: boolean,
): CountChoice {
  const preferred = preferredCount(prefer);
  return preferred
    ? { strategy: preferred, preferred: true }
    : { strategy: cursor ? 'none' : option, preferred: false };
}
