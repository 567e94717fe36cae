import { CrudApiError } from '../../errors/crud-api.error.js';
import { INVALID, SCALAR_CODECS } from '../../scalars/scalar-codecs.js';
import { AS_OF_PARAMETER } from '../../shared/history.constants.js';
import type { RawQuery } from './parse-query.js';

/** Which routes take `asOf`: the reads of a collection or a resource (`past`); not other reads, nor writes. */
export type AsOfRoute = 'past' | 'read' | 'write';

const CURSOR_KEYS = ['size', 'after', 'before'] as const;

const refuse = (code: 'invalid-query-parameter' | 'as-of-unsupported', parameter: string, message: string) =>
  new CrudApiError(code, message, { source: { parameter } });

/**
 * The time of `asOf=<RFC 3339>` (docs/history.md), undefined without it. Only `GET /:type` and
 * `GET /:type/:id` take it; a read there as of a past time has no related rows (`include`) and no
 * cursor pages, which are refused here with the parameter that asks for them rather than by the data
 * layer without one. Whether the type records its history is the data layer's to say.
 */
export function asOfParameter(raw: RawQuery, route: AsOfRoute): Date | undefined {
  const text = raw.own[AS_OF_PARAMETER];
  if (text === undefined) return undefined;
  if (route === 'write')
    throw refuse('invalid-query-parameter', AS_OF_PARAMETER, `"${AS_OF_PARAMETER}" applies to reads only.`);
  if (route === 'read')
    throw refuse(
      'as-of-unsupported',
      AS_OF_PARAMETER,
      `"${AS_OF_PARAMETER}" applies to the GET of a collection or of a resource only.`,
    );
  const at = timeParameter(AS_OF_PARAMETER, text);
  if (raw.include)
    throw refuse(
      'as-of-unsupported',
      'include',
      `A read "${AS_OF_PARAMETER}" a past time cannot include related resources.`,
    );
  const cursor = CURSOR_KEYS.find((key) => raw.page[key] !== undefined);
  if (cursor)
    throw refuse(
      'as-of-unsupported',
      `page[${cursor}]`,
      `A read "${AS_OF_PARAMETER}" a past time takes offset pages (page[offset], page[limit]) only.`,
    );
  return at;
}

/** A query parameter's RFC 3339 date-time with its offset, as the DateTime codec reads it; 400 otherwise. */
export function timeParameter(parameter: string, text: string): Date {
  const codec = SCALAR_CODECS.DateTime;
  const at = codec.fromText(text);
  if (at === INVALID) throw refuse('invalid-query-parameter', parameter, `"${parameter}" must be ${codec.expected}.`);
  return at as Date;
}
