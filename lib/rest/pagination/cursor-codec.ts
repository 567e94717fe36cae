import { CrudApiError } from '../../errors/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { attributeEncoder, decodeAttribute } from '../attribute-codec.js';
import { keysetSignature, type SortKey } from './sort-keys.js';

type Row = Record<string, unknown>;

/** What a cursor holds: the sort it belongs to (`s`) and the row's key values as attribute values (`v`). */
interface CursorBody {
  s: string;
  v: unknown[];
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Reads and writes the opaque cursors of one sort: base64url of `{"s":signature,"v":[values]}`. */
export interface CursorCodec {
  encode(row: Row): string;
  /** The Prisma values of the keys; 400 with `source.parameter` for anything this sort did not write. */
  decode(text: string, parameter: string): unknown[];
}

export function cursorCodec(
  model: ModelMeta,
  keys: readonly SortKey[],
  enums: Readonly<Record<string, readonly string[]>>,
): CursorCodec {
  const signature = keysetSignature(model, keys);
  const encoders = keys.map((key) => attributeEncoder(key.field));
  return {
    encode: (row) => {
      const body: CursorBody = { s: signature, v: keys.map((key, index) => encoders[index]!(row[key.field.name])) };
      return Buffer.from(JSON.stringify(body)).toString('base64url');
    },
    decode: (text, parameter) => {
      const invalid = () =>
        new CrudApiError(
          'invalid-query-parameter',
          `${parameter} is not a cursor of this collection and sort; use the links of a response.`,
          {
            source: { parameter },
          },
        );
      const body = parseBody(text);
      if (!body || body.s !== signature || body.v.length !== keys.length) throw invalid();
      return keys.map((key, index) => {
        try {
          // The attribute rules of request bodies: types, ranges and nulls of optional fields only.
          return decodeAttribute(key.field, body.v[index], enums, '');
        } catch (error) {
          if (error instanceof CrudApiError) throw invalid();
          throw error;
        }
      });
    },
  };
}

/** The JSON inside a cursor when it has the expected shape, exactly; base64url that does not round-trip is foreign. */
function parseBody(text: string): CursorBody | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.toString('base64url') !== text) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const keys = Object.keys(body);
  const { s, v } = body as Partial<CursorBody>;
  if (keys.length !== 2 || typeof s !== 'string' || !Array.isArray(v)) return undefined;
  return { s, v };
}
