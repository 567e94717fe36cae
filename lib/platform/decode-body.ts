import { Readable, type Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import { CrudApiError } from '../errors/crud-api.error.js';
import { quoteInput } from '../errors/quote-input.js';

/** The content codings the module's routes decode (RFC 9110 §8.4.1); `x-gzip` is gzip's old name. */
const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The `Content-Encoding` names a client may send, in messages. */
const KNOWN = 'gzip, deflate, br or identity';

/**
 * The one content coding of a body, from its `Content-Encoding` header (names are
 * case-insensitive, `identity` and empty list members mean nothing); undefined when the body is
 * sent as it is. 415 for an unknown coding and for stacked codings (`gzip, br`), which no HTTP
 * client sends and which would multiply the decoding work.
 */
export function contentCodingOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const codings = [header]
    .flat()
    .flatMap((value) => value.split(','))
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '' && name !== 'identity');
  if (codings.length > 1)
    throw new CrudApiError(
      'unsupported-media-type',
      `The request body may have one content coding (${KNOWN}), not several.`,
    );
  const [coding] = codings;
  if (coding !== undefined && !Object.hasOwn(DECODERS, coding))
    throw new CrudApiError(
      'unsupported-media-type',
      `The content coding ${quoteInput(coding)} is not supported: send the body as ${KNOWN}.`,
    );
  return coding;
}

export function bodyTooLarge(limit: number): CrudApiError {
  return new CrudApiError('payload-too-large', `The request body exceeds the limit of ${limit} bytes.`);
}

/**
 * A body's decoded bytes; `receivedEncodedLength` counts the bytes received, as Fastify reads it.
 * Only readable: body-parser takes a writable stream for a response (on-finished).
 */
export type DecodedBody = Readable & { receivedEncodedLength: number };

/**
 * The decoded bytes of a request body sent with a content coding. The bytes received and the bytes
 * decoded are both held to `limit`: past it the decoder is stopped (a decompression bomb inflates
 * no more than about `limit` bytes) and the stream fails with 413; a body that does not decode
 * fails with 400. The request itself is never destroyed, so the error can still be answered: what
 * is left of it is read and dropped.
 */
export function decodeBody(raw: Readable, coding: string, limit: number): DecodedBody {
  const decoder = DECODERS[coding]!();
  const body = Object.assign(new Readable({ read: () => decoder.resume() }), { receivedEncodedLength: 0 });
  // The reader may have stopped listening (it answered already, on its own limit): the error is news to it only.
  body.on('error', () => undefined);
  let decodedLength = 0;
  let stopped = false;
  const stop = (error: Error): void => {
    if (stopped) return;
    stopped = true;
    raw.unpipe(decoder);
    decoder.destroy();
    body.destroy(error);
  };
  raw.on('data', (chunk: Buffer) => {
    body.receivedEncodedLength += chunk.length;
    if (body.receivedEncodedLength > limit) stop(bodyTooLarge(limit));
  });
  raw.once('error', stop);
  decoder.on('data', (chunk: Buffer) => {
    decodedLength += chunk.length;
    if (decodedLength > limit) stop(bodyTooLarge(limit));
    else if (!body.push(chunk)) decoder.pause();
  });
  decoder.once('end', () => body.push(null));
  decoder.once('error', () => {
    // No bytes at all is no body (a DELETE sent with the header), not a broken one.
    if (body.receivedEncodedLength === 0 && !stopped) body.push(null);
    else stop(new CrudApiError('invalid-request', `The request body is not valid ${coding} data.`));
  });
  raw.pipe(decoder);
  return body;
}
