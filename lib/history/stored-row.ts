import { createHash } from 'node:crypto';

import { Decimal } from '@prisma/client/runtime/client';

import type { ModelMeta } from '../metadata/model-meta.types.js';
import { isDecimalLike } from '../scalars/decimal.js';

type Row = Record<string, unknown>;

/** A column's value as JSON carries it: Dates as ISO text, BigInts and Decimals as text, Bytes as base64. */
function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  // Prisma's Decimal (decimal.js): its text keeps every digit.
  if (isDecimalLike(value)) return String(value);
  return value;
}

/** The row's columns as JSON carries them (`jsonValue`). */
export function plainRow(row: Row): Row {
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, jsonValue(value)]));
}

/** Whether two values of a column are the same, compared in their JSON form. */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(jsonValue(a)) === JSON.stringify(jsonValue(b));
}

/** A column's value back from its JSON form, as Prisma reads it from the column (`plainRow` undone). */
function typedValue(type: string, value: unknown): unknown {
  if (value === null || typeof value !== 'string') return value;
  switch (type) {
    case 'DateTime':
      return new Date(value);
    case 'BigInt':
      return BigInt(value);
    case 'Decimal':
      return new Decimal(value);
    case 'Bytes':
      return new Uint8Array(Buffer.from(value, 'base64'));
    default:
      return value;
  }
}

/**
 * A row kept as JSON (`plainRow`), typed again by the model's fields. Columns the model no longer
 * has are left out; a column added since is absent (it did not exist then).
 */
export function typedRow(model: ModelMeta, stored: Row): Row {
  const row: Row = {};
  for (const [name, value] of Object.entries(stored)) {
    const field = Object.hasOwn(model.fields, name) ? model.fields[name] : undefined;
    if (field && field.kind !== 'relation') row[name] = field.isList ? value : typedValue(field.type, value);
  }
  return row;
}

/** Longest row key kept as it is: longer keys (long text ids) are kept as their hash, which orders as well. */
const ROW_KEY_LENGTH = 128;
/** What begins a row key kept as its hash. */
export const HASHED_KEY = 'sha256:';

/** The row a change is about, as one text (its primary key's JSON, or that JSON's hash when long). */
export function rowKey(id: Row): string {
  const text = JSON.stringify(plainRow(id));
  return text.length <= ROW_KEY_LENGTH ? text : `${HASHED_KEY}${createHash('sha256').update(text).digest('hex')}`;
}
