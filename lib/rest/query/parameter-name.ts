import { AS_OF_PARAMETER } from '../../shared/history.constants.js';
import { HARD_DELETE_PARAMETER, WITH_DELETED_PARAMETER } from '../../shared/soft-delete.constants.js';

/** The query parameter families JSON:API 1.1 defines. */
const FAMILIES = new Set(['filter', 'sort', 'page', 'include', 'fields'] as const);
export type Family = typeof FAMILIES extends Set<infer K> ? K : never;

/** The implementation-specific parameters this module reads (soft delete, time travel), by their exact names. */
const OWN_PARAMETERS = new Set([WITH_DELETED_PARAMETER, HARD_DELETE_PARAMETER, AS_OF_PARAMETER] as const);
export type OwnParameter = typeof OWN_PARAMETERS extends Set<infer K> ? K : never;

/**
 * jQuery's and other browsers' cache buster (`_=1700000000`): not a legal member name (it starts
 * with `_`), accepted and ignored all the same, as browsers send it unasked.
 */
const CACHE_BUSTER = '_';

/**
 * JSON:API 1.1 §"Member Names": at least one character; a-z, A-Z, 0-9 and U+0080 and above
 * anywhere, `-`, `_` and space only between two of those.
 */
const MEMBER_NAME = /^[a-zA-Z0-9\u{80}-\u{10FFFF}](?:[a-zA-Z0-9\u{80}-\u{10FFFF}_ -]*[a-zA-Z0-9\u{80}-\u{10FFFF}])?$/u;

/** §"Query Parameter Families": a base name, then any number of `[]` or `[member]`. */
const FAMILY_NAME = /^([^[\]]*)((?:\[[^[\]]*\])*)$/;

export const isMemberName = (name: string): boolean => MEMBER_NAME.test(name);

/**
 * A legal bracketed member; in a filter, the last may carry this module's operator
 * (`filter[title$contains]`): `$` and a member name after a member name.
 */
function isLegalMember(member: string, filterOperator: boolean): boolean {
  if (member === '') return true;
  const dollar = filterOperator ? member.indexOf('$') : -1;
  if (dollar < 0) return isMemberName(member);
  return isMemberName(member.slice(0, dollar)) && isMemberName(member.slice(dollar + 1));
}

/** What a query parameter's name is to a REST route. */
export type ParameterName =
  | { kind: 'family'; family: Family; selectors: readonly string[] }
  | { kind: 'own'; name: OwnParameter }
  /** Implementation-specific, but not this module's: passed over. */
  | { kind: 'ignored' };

/**
 * The names already read, each once (null: answered 400): every request of a route sends the same
 * few, and the reading's regular expressions cost more than the rest of its parsing.
 */
const readNames = new Map<string, ParameterName | null>();
const MAX_READ_NAMES = 256;
/** Longer names are read each time: the map holds at most 256 names of this length, whatever the server's header limit. */
const MAX_READ_NAME_LENGTH = 128;

/**
 * The one reading of a query parameter's name on every REST route (JSON:API 1.1 §"Query Parameters"),
 * undefined for a name that must be answered 400:
 * - the five JSON:API families, `base[member]…`, with `[]` or a legal member name in each bracket;
 * - this module's own `withDeleted`, `hardDelete` and `asOf`, by their exact names;
 * - any other implementation-specific name (a legal member name as base, with a character outside
 *   a-z, and legal bracketed members) is ignored, as JSON:API lets a server do, and so is `_`;
 * - everything else is 400: names JSON:API reserves (all a-z) and names that break its naming rules
 *   (`__proto__[x]`, `filterisbn]`, `filter]title[`, a control character), which a server must refuse.
 */
export function readParameterName(name: string): ParameterName | undefined {
  // A long name is never kept: no lookup, which would hash it once more.
  if (name.length > MAX_READ_NAME_LENGTH) return readName(name);
  const known = readNames.get(name);
  if (known !== undefined) return known ?? undefined;
  const read = readName(name);
  // Clients send few distinct names. Past the bound the map starts over: arbitrary names cannot
  // grow it, nor fill it for good and leave the names a route does send read on every request.
  if (readNames.size >= MAX_READ_NAMES) readNames.clear();
  readNames.set(name, read === undefined ? null : Object.freeze(read));
  return read;
}

function readName(name: string): ParameterName | undefined {
  if (name === CACHE_BUSTER) return { kind: 'ignored' };
  const match = FAMILY_NAME.exec(name);
  if (!match || !isMemberName(match[1]!)) return undefined;
  const base = match[1]!;
  const family = FAMILIES.has(base as Family) ? (base as Family) : undefined;
  const selectors = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
  const last = selectors.length - 1;
  if (!selectors.every((member, at) => isLegalMember(member, family === 'filter' && at === last))) return undefined;
  if (family) return { kind: 'family', family, selectors: Object.freeze(selectors) };
  if (OWN_PARAMETERS.has(base as OwnParameter)) {
    return selectors.length === 0 ? { kind: 'own', name: base as OwnParameter } : undefined;
  }
  return /[^a-z]/.test(base) ? { kind: 'ignored' } : undefined;
}
