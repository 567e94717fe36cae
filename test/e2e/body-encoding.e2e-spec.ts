import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

import fc from 'fast-check';

import { useTestApp } from '../support/test-app.js';

interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: any;
}

const LIMIT = 4096;
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

const ENCODERS: Readonly<Record<string, (body: Buffer) => Buffer>> = {
  identity: (body) => body,
  gzip: (body) => zlib.gzipSync(body),
  deflate: (body) => zlib.deflateSync(body),
  br: (body) => zlib.brotliCompressSync(body),
};

/** Far more than the limit once decoded, less than it as sent. */
const BOMBS: Readonly<Record<string, Buffer>> = {
  gzip: zlib.gzipSync(Buffer.alloc(4_000_000, ' ')),
  deflate: zlib.deflateSync(Buffer.alloc(4_000_000, ' ')),
  br: zlib.brotliCompressSync(Buffer.alloc(50_000_000, ' ')),
};

const INTERFACES = {
  REST: {
    path: '/api/rest/tag',
    contentType: 'application/vnd.api+json',
    body: (name: string) => ({ data: { type: 'tag', attributes: { name } } }),
  },
  RPC: { path: '/api/rpc/tag/create', contentType: 'application/json', body: (name: string) => ({ data: { name } }) },
} as const;
type Interface = keyof typeof INTERFACES;

/** The answer is an error in the format of the interface that was called. */
function expectErrorFormat(kind: Interface, answer: RawAnswer, code: string): void {
  if (kind === 'REST') {
    expect(answer.contentType).toMatch(/^application\/vnd\.api\+json/);
    expect(answer.body.errors[0]).toMatchObject({ status: String(answer.status), code });
  } else {
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(typeof answer.body.error.message).toBe('string');
  }
}

/**
 * Bodies sent with a `Content-Encoding`, byte for byte through node's own client: decoded and held
 * to `bodyLimit` once decoded, refused in the interface's error format when they cannot be.
 */
describe('Content-Encoding of request bodies on the module routes', () => {
  let port: number;
  const t = useTestApp('sqlite', { options: { bodyLimit: LIMIT } });
  beforeAll(async () => {
    const server = t.app.getHttpServer() as http.Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  const send = (kind: Interface, encoding: string | undefined, body: Buffer): Promise<RawAnswer> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {
        'content-type': INTERFACES[kind].contentType,
        'content-length': body.length,
      };
      if (encoding !== undefined) headers['content-encoding'] = encoding;
      const req = http.request(
        { host: '127.0.0.1', port, method: 'POST', path: INTERFACES[kind].path, headers },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              contentType: res.headers['content-type'],
              body: text ? JSON.parse(text) : undefined,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const json = (kind: Interface, name: string) => Buffer.from(JSON.stringify(INTERFACES[kind].body(name)));
  const tagNamed = (name: string) => t.db.prisma.tag.findUnique({ where: { name } });
  let serial = 0;
  const uniqueName = () => `encoded ${++serial}`;

  describe.each(Object.keys(INTERFACES) as Interface[])('%s', (kind) => {
    it.each([
      ['gzip', 'gzip'],
      ['deflate', 'deflate'],
      ['br', 'br'],
      ['identity', 'identity'],
      ['gzip', 'GZip'],
      ['br', ' BR '],
      ['gzip', 'identity, gzip'],
      ['gzip', 'x-gzip'],
    ])('decodes a %s body sent as Content-Encoding "%s"', async (codec, header) => {
      const name = uniqueName();
      const answer = await send(kind, header, ENCODERS[codec]!(json(kind, name)));
      expect(answer.status).toBe(201);
      expect(await tagNamed(name)).not.toBeNull();
    });

    it.each(Object.keys(BOMBS))(
      'answers a %s decompression bomb 413 without inflating it, within a few seconds',
      async (codec) => {
        expect(BOMBS[codec]!.length).toBeLessThan(LIMIT);
        const before = await t.db.prisma.tag.count();
        const started = Date.now();
        const answer = await send(kind, codec, BOMBS[codec]!);
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(answer.status).toBe(413);
        expectErrorFormat(kind, answer, 'payload-too-large');
        expect(await t.db.prisma.tag.count()).toBe(before);
      },
    );

    it('holds the bytes received to the limit as well', async () => {
      const incompressible = Buffer.from(Array.from({ length: 3 * LIMIT }, (_, i) => (i * 7919) % 251));
      const answer = await send(kind, 'gzip', Buffer.concat([zlib.gzipSync(Buffer.alloc(0)), incompressible]));
      expect(answer.status).toBe(413);
      expectErrorFormat(kind, answer, 'payload-too-large');
    });

    it.each([
      ['a truncated gzip body', 'gzip', (body: Buffer) => zlib.gzipSync(body).subarray(0, 12)],
      ['a gzip body with a wrong checksum', 'gzip', (body: Buffer) => flipByte(zlib.gzipSync(body), -6)],
      ['a deflate body that is not deflate', 'deflate', (body: Buffer) => body],
      ['a br body that is not brotli', 'br', () => Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00])],
    ])('answers %s 400 and writes nothing', async (_label, header, encode) => {
      const name = uniqueName();
      const answer = await send(kind, header, encode(json(kind, name)));
      expect(answer.status).toBe(400);
      expectErrorFormat(kind, answer, 'invalid-request');
      expect(await tagNamed(name)).toBeNull();
    });

    it.each(['zstd', 'compress', 'gzip, br', 'br, gzip', 'gzip;q=1', 'chunked'])(
      'answers Content-Encoding "%s" 415',
      async (header) => {
        const name = uniqueName();
        const answer = await send(kind, header, zlib.gzipSync(json(kind, name)));
        expect(answer.status).toBe(415);
        expectErrorFormat(kind, answer, 'unsupported-media-type');
        expect(await tagNamed(name)).toBeNull();
      },
    );
  });

  const codec = fc.constantFrom(...Object.keys(ENCODERS));
  /** What is done to the encoded bytes: nothing, a cut, a changed byte. */
  const damage = fc.oneof(
    fc.constant({ kind: 'none' as const }),
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  );
  /** The header sent: the codec's own name in any case, or another value (unknown, stacked, noise). */
  const header = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    fc.constantFrom('zstd', 'gzip, br', 'br,deflate', 'x-compress', 'gzip;level=9', ''),
    fc.stringOf(fc.constantFrom(...'gzipbrdeflatGZBR ,;=-x'), { maxLength: 12 }),
  );

  it('answers random bodies, codecs, damage and headers: never 5xx, always in the interface format', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Interface>('REST', 'RPC'),
        codec,
        damage,
        header,
        fc.boolean(),
        async (kind, name, hurt, other, upperCase) => {
          const tag = uniqueName();
          const encoded = ENCODERS[name]!(json(kind, tag));
          const body =
            hurt.kind === 'truncate'
              ? encoded.subarray(0, hurt.at % encoded.length)
              : hurt.kind === 'flip'
                ? flipByte(encoded, hurt.at % encoded.length, hurt.xor)
                : encoded;
          const sentHeader = other ?? (upperCase ? name.toUpperCase() : name);
          const before = await t.db.prisma.tag.count();
          const answer = await send(kind, sentHeader, body);
          expect(answer.status).toBeLessThan(500);
          const known = ['', 'identity', 'gzip', 'deflate', 'br'].includes(sentHeader.trim().toLowerCase());
          if (!known) {
            expect(answer.status).toBe(415);
          } else if (other === undefined && hurt.kind === 'none') {
            expect(answer.status).toBe(201);
          } else {
            // Damaged bytes may still decode (brotli has no checksum), to JSON or not.
            expect([201, 400]).toContain(answer.status);
          }
          if (answer.status >= 400) expectErrorFormat(kind, answer, answer.body.errors?.[0]?.code ?? '');
          // A damaged name may be the one written: the count tells that one row was, or none.
          expect(await t.db.prisma.tag.count()).toBe(before + (answer.status === 201 ? 1 : 0));
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});

function flipByte(bytes: Buffer, at: number, xor = 0x55): Buffer {
  const copy = Buffer.from(bytes);
  const index = at < 0 ? copy.length + at : at;
  copy[index] = copy[index]! ^ xor;
  return copy;
}
