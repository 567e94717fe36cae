import type { FieldMeta, ScalarType } from '../../metadata/model-meta.types.js';
import { dateInRange } from '../../scalars/date-time.js';
import { isDecimalText, MAX_DECIMAL_DIGITS } from '../../scalars/decimal.js';
import { codecOf, INVALID, isInt64, type ScalarCodec } from '../../scalars/scalar-codecs.js';
import { isDecimalLike } from '../rpc-superjson.js';

/** A value superjson carries typed (its `meta`): no JSON form to read, its range to check. */
interface TypedForm {
  is(value: unknown): boolean;
  inRange(value: never): boolean;
  /** The type has no JSON form on RPC (Bytes): a value not typed is refused. */
  only?: boolean;
}

const TYPED_FORMS: Readonly<Partial<Record<ScalarType, TypedForm>>> = {
  BigInt: { is: (v) => typeof v === 'bigint', inRange: isInt64 },
  DateTime: { is: (v) => v instanceof Date, inRange: dateInRange },
  Decimal: {
    is: isDecimalLike,
    // decimal.js's `e` is the power of ten of the first digit: checked before `toFixed` writes the digits out.
    inRange: (v: { e: number; toFixed(): string }) => v.e < MAX_DECIMAL_DIGITS && isDecimalText(v.toFixed()),
  },
  Bytes: { is: (v) => v instanceof Uint8Array, inRange: () => true, only: true },
};

function parse(codec: ScalarCodec, typed: TypedForm | undefined, value: unknown): unknown {
  if (typed?.is(value)) return typed.inRange(value as never) ? value : INVALID;
  return typed?.only ? INVALID : codec.fromJson(value);
}

/**
 * The Prisma value of a single (non-list) value of a scalar or enum field, or why it does not fit:
 * a typed value in its range, else the codec's reading of its JSON form. `null` is for the caller
 * to allow (optional fields).
 */
export function scalarValue(
  field: FieldMeta,
  value: unknown,
  enums: Readonly<Record<string, readonly string[]>>,
): { value: unknown } | { problem: string } {
  const codec = codecOf(field, enums);
  if (!codec) return { problem: `the type ${field.type} is not supported` };
  const typed = field.kind === 'scalar' ? TYPED_FORMS[field.type as ScalarType] : undefined;
  const parsed = parse(codec, typed, value);
  if (parsed !== INVALID) return { value: parsed };
  return { problem: `expected ${typed?.only ? 'bytes (a superjson Bytes value)' : codec.expected}` };
}
