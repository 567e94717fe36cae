import type { FieldMeta } from '../metadata/model-meta.types.js';
import { codecOf } from '../scalars/scalar-codecs.js';
import { type JsonSchema, nullable } from './openapi.types.js';

/** Which side of the wire: what the server writes, or what it reads from a client. */
export type Direction = 'response' | 'request';

type Enums = Readonly<Record<string, readonly string[]>>;

/** One value of a scalar or enum type (list items included): its codec's schema. */
export function scalarSchema(field: Pick<FieldMeta, 'kind' | 'type'>, enums: Enums, direction: Direction): JsonSchema {
  const codec = codecOf(field, enums);
  if (!codec) throw new Error(`No OpenAPI schema for field type ${field.type}.`);
  return codec.schema[direction];
}

/** A field's value: a list is an array, an optional field may be `null` (Json is any value already). */
export function fieldValueSchema(field: FieldMeta, enums: Enums, direction: Direction): JsonSchema {
  const item = scalarSchema(field, enums, direction);
  if (field.isList) return { type: 'array', items: item };
  return field.isOptional && field.type !== 'Json' ? nullable(item) : item;
}
