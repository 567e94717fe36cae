// Browser-safe: imports superjson and a pure scalar module only, so the RPC client (lib/client) can share it with the server.
import type { SuperJSON } from 'superjson';

import { type DecimalLike, isDecimalLike } from '../scalars/decimal.js';

export { isDecimalLike };

/** A class that builds a decimal from its string form, such as Prisma's or decimal.js's `Decimal`. */
export type DecimalConstructor = new (value: string) => { toString(): string };

/** Base64 without `Buffer`, so the helper also works in browsers. */
function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function base64ToBytes(base64: string): Uint8Array {
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/**
 * Registers Prisma's Decimal and Bytes values on a superjson instance, as `custom` values named
 * `Decimal` (string form) and `Bytes` (base64). Servers and clients both need it: pass the
 * Decimal class the client should restore decimals into, or `null` to keep their strings.
 */
export function registerPrismaTypes(serializer: SuperJSON, decimal: DecimalConstructor | null): SuperJSON {
  serializer.registerCustom<DecimalLike, string>(
    {
      isApplicable: isDecimalLike,
      serialize: (value) => value.toString(),
      deserialize: (value) => (decimal ? new decimal(value) : value) as unknown as DecimalLike,
    },
    'Decimal',
  );
  serializer.registerCustom<Uint8Array, string>(
    {
      isApplicable: (value): value is Uint8Array => value instanceof Uint8Array,
      serialize: bytesToBase64,
      deserialize: base64ToBytes,
    },
    'Bytes',
  );
  return serializer;
}
