import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import { jsonPointer } from '../../shared/json-pointer.js';

type Path = readonly (string | number)[];

/** The members JSON:API 1.1 allows in each object of a request document; any other is 400. */
export const DOCUMENT_MEMBERS = {
  document: new Set(['data', 'meta', 'jsonapi', 'links', 'included']),
  resource: new Set(['type', 'id', 'lid', 'attributes', 'relationships', 'meta', 'links']),
  identifier: new Set(['type', 'id', 'lid', 'meta']),
  relationship: new Set(['data', 'links', 'meta']),
  // The Atomic Operations extension's request document, operation and `ref` objects.
  atomicDocument: new Set(['atomic:operations', 'meta', 'jsonapi', 'links']),
  operation: new Set(['op', 'ref', 'href', 'data', 'meta']),
  ref: new Set(['type', 'id', 'lid', 'relationship']),
} as const;

/** Members that, when present, must be JSON objects. */
const OBJECT_MEMBERS = new Set(['meta', 'links', 'jsonapi', 'attributes', 'relationships']);

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function invalidMember(message: string, path: Path): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer: jsonPointer(path) } });
}

/**
 * 400 unless a request that takes no document sent none: no body, or an empty one (`{}` is what a
 * JSON parser makes of a body of no bytes on some platforms).
 */
export function assertNoDocument(body: unknown): void {
  if (body === undefined || (isObject(body) && Object.keys(body).length === 0)) return;
  throw invalidMember('This request takes no document: send no body.', []);
}

/** 400 for a member the server sets (`serverSet` by the rules, or a relationship through such a foreign key). */
export function serverSetMember(kind: 'Attribute' | 'Relationship', name: string, pointer?: string): CrudApiError {
  return new CrudApiError('invalid-payload', `${kind} "${name}" is set by the server and cannot be given.`, {
    ...(pointer === undefined ? {} : { source: { pointer } }),
  });
}

/**
 * Checks one object of a request document: an object, no member JSON:API does not define for it,
 * objects where objects belong and a string `lid`. What a member means is checked by its reader.
 */
export function assertDocumentObject(
  value: unknown,
  kind: keyof typeof DOCUMENT_MEMBERS,
  what: string,
  path: Path,
): asserts value is Record<string, unknown> {
  if (!isObject(value)) throw invalidMember(`${what} must be an object.`, path);
  const allowed = DOCUMENT_MEMBERS[kind];
  for (const [member, content] of Object.entries(value)) {
    if (!allowed.has(member)) {
      throw invalidMember(
        `${what} may not have the member ${quoteInput(member)}; allowed: ${[...allowed].join(', ')}.`,
        [...path, member],
      );
    }
    if (OBJECT_MEMBERS.has(member) && !isObject(content))
      throw invalidMember(`"${member}" must be an object.`, [...path, member]);
    if (member === 'lid' && typeof content !== 'string')
      throw invalidMember('"lid" must be a string.', [...path, member]);
  }
}
