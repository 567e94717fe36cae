/**
 * Consistency tokens (docs/replicas.md): PostgreSQL write-ahead log positions (`pg_lsn`, written
 * `16/B374D848`: two hexadecimal halves of a 64-bit byte offset), compared as numbers and written
 * as PostgreSQL writes them. The server and the client both read them.
 */

/** The header that carries a token, unless the `replicas.header` option names another. */
export const CONSISTENCY_TOKEN_HEADER = 'Consistency-Token';

const LSN = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i;

/** The position `text` names, or undefined when it names none. */
export function parseWalPosition(text: string): bigint | undefined {
  const match = LSN.exec(text);
  if (!match) return undefined;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
}

/** A position as PostgreSQL writes it. */
export function formatWalPosition(position: bigint): string {
  return `${(position >> 32n).toString(16).toUpperCase()}/${(position & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** The later of two tokens (answers may arrive out of order); a text that is no token loses. */
export function laterToken(kept: string | undefined, answered: string): string | undefined {
  const position = parseWalPosition(answered);
  if (position === undefined) return kept;
  return kept !== undefined && parseWalPosition(kept)! >= position ? kept : answered;
}
