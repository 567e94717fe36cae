import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The Standard Webhooks signature scheme (https://www.standardwebhooks.com/): an HMAC-SHA256 of
 * `${id}.${timestamp}.${body}` under the target's secret, base64, behind the version `v1,`.
 */
const VERSION = 'v1';
const SECRET_PREFIX = 'whsec_';
/** How far a delivery's timestamp may be from the receiver's clock by default, in seconds: replays older than this fail. */
export const DEFAULT_SIGNATURE_TOLERANCE = 300;

/** The key's bytes: base64 after `whsec_` (the scheme's own form), the UTF-8 of any other secret. */
function keyOf(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX)
    ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

function signature(secret: string, id: string, timestamp: string, body: string | Uint8Array): Buffer {
  return createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest();
}

/** The headers of one signed delivery: `webhook-id`, `webhook-timestamp` (Unix seconds), `webhook-signature`. */
export function signWebhook(
  secret: string,
  id: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
): Record<string, string> {
  const seconds = String(timestamp);
  return {
    'webhook-id': id,
    'webhook-timestamp': seconds,
    'webhook-signature': `${VERSION},${signature(secret, id, seconds, body).toString('base64')}`,
  };
}

/** What a receiver checks a delivery with (docs/live.md). */
export interface WebhookVerification {
  /** The target's secret, as given to `outbox.webhooks`. */
  secret: string;
  /** The request's headers (Node's `request.headers`, a `Headers`, or a plain object of lower-case names). */
  headers: Headers | Record<string, string | string[] | undefined>;
  /** The request's body exactly as received, before any JSON parsing. */
  body: string | Uint8Array;
  /** How far the timestamp may be from `now`, in seconds. Default 300. */
  tolerance?: number;
  /** The receiver's time, in milliseconds. Default `Date.now()`. */
  now?: number;
}

function header(headers: WebhookVerification['headers'], name: string): string | undefined {
  const value = headers instanceof Headers ? headers.get(name) : headers[name];
  return (Array.isArray(value) ? value[0] : value) ?? undefined;
}

/**
 * Whether a request is a delivery of the outbox signed with `secret` and recent: the three
 * headers present, the timestamp within the tolerance, one of the `v1` signatures of
 * `webhook-signature` (space-separated) the right one (compared in constant time).
 */
export function verifyWebhookSignature({
  secret,
  headers,
  body,
  tolerance = DEFAULT_SIGNATURE_TOLERANCE,
  now = Date.now(),
}: WebhookVerification): boolean {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > tolerance) return false;
  const expected = signature(secret, id, timestamp, body);
  return signatures.split(' ').some((entry) => {
    const [version, value] = entry.split(',', 2);
    if (version !== VERSION || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
