import type { ChangeNotice } from './change-transport.js';

/** PostgreSQL refuses a `NOTIFY` payload of 8000 bytes or more (its default build). */
export const POSTGRES_PAYLOAD_LIMIT = 7999;

/**
 * A notice as one message: JSON of its models and origin. A list of models that would make the
 * message longer than `maxBytes` (UTF-8) becomes `'*'`: re-running every live query is correct,
 * only slower.
 */
export function encodeChangeNotice(notice: ChangeNotice, maxBytes = Number.POSITIVE_INFINITY): string {
  const message = JSON.stringify({ models: notice.models, origin: notice.origin });
  if (notice.models === '*' || Buffer.byteLength(message) <= maxBytes) return message;
  return JSON.stringify({ models: '*', origin: notice.origin });
}

/**
 * The notice of a message. A message it cannot read (another program's on the channel, another
 * version's format) still says that something changed: it becomes `'*'` from no instance (`''`).
 */
export function decodeChangeNotice(message: string): ChangeNotice {
  const value = parse(message);
  return isChangeNotice(value) ? { models: value.models, origin: value.origin } : { models: '*', origin: '' };
}

function parse(message: string): unknown {
  try {
    return JSON.parse(message);
  } catch {
    return undefined;
  }
}

function isChangeNotice(value: unknown): value is ChangeNotice {
  if (typeof value !== 'object' || value === null) return false;
  const { models, origin } = value as Record<string, unknown>;
  const modelsValid = models === '*' || (Array.isArray(models) && models.every((model) => typeof model === 'string'));
  return modelsValid && typeof origin === 'string';
}
