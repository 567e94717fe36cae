import { Decimal } from '@prisma/client/runtime/client';
import fc from 'fast-check';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { rpcResultArbitrary } from '../../test/support/rpc-result-arbitraries.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { pathSegmentCount, walkRpcResult } from './rpc-result-walk.js';
import { compileResultWriter, type RpcResultWriter } from './rpc-result-writer.js';
import { rpcSuperJSON } from './rpc-superjson.js';
import { serializeRpcResult } from './serialize-rpc-result.js';

/** Seeded and small by default; `FUZZ_RUNS=20000` searches longer, `FUZZ_SEED` picks another seed. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

/** The body as superjson writes it: what serializeRpcResult wrote before the fast walk. */
function superjsonBody(result: unknown): unknown {
  const { json, meta } = rpcSuperJSON.serialize(result);
  return meta ? { data: json, meta: { serialization: meta } } : { data: json ?? null };
}

/** The response bytes, or the error a serializer threw. */
function outcome(serialize: () => unknown): { bytes: string } | { error: string } {
  try {
    return { bytes: JSON.stringify(serialize()) };
  } catch (error) {
    return { error: String(error) };
  }
}

const registry = new ModelRegistry(modelMeta);

/**
 * Writers compiled for the models the sample results hold rows of (posts, users). The tests use
 * new ones for each result, which compile every key order met, and ones kept across results as the
 * server keeps them, which soon have as many key orders as they keep and leave new ones to the
 * generic walk.
 */
function sampleWriters(): RpcResultWriter[] {
  return ['Post', 'User'].map((name) => compileResultWriter(registry, registry.findByModelName(name)!));
}

describe('walkRpcResult and the compiled result writers', () => {
  it('write byte for byte what superjson writes for Prisma results of the sample models', () => {
    const kept = sampleWriters();
    let compiled = 0;
    fc.assert(
      fc.property(rpcResultArbitrary({ hostile: false }), (result) => {
        const expected = JSON.stringify(rpcSuperJSON.serialize(result));
        const walked = walkRpcResult(result);
        expect(walked).toBeDefined();
        expect(JSON.stringify(walked)).toBe(expected);
        for (const writer of [...sampleWriters(), ...kept]) {
          const written = writer(result);
          if (written === undefined) continue;
          compiled++;
          expect(JSON.stringify(written)).toBe(expected);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Rows of posts or users are three of the arbitrary's seven shapes.
    expect(compiled).toBeGreaterThan(RUNS / 4);
  });

  it('give the same response body as superjson, or the same error, on hostile values', () => {
    const kept = sampleWriters();
    let walked = 0;
    let compiled = 0;
    fc.assert(
      fc.property(rpcResultArbitrary({ hostile: true }), (result) => {
        if (walkRpcResult(result) !== undefined) walked++;
        const expected = outcome(() => superjsonBody(result));
        expect(outcome(() => serializeRpcResult(result))).toEqual(expected);
        for (const writer of [...sampleWriters(), ...kept]) {
          if (writer(result) !== undefined) compiled++;
          expect(outcome(() => serializeRpcResult(result, rpcSuperJSON, writer))).toEqual(expected);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // Most of them still take a fast path: the comparison is not only superjson against itself.
    expect(walked).toBeGreaterThan(RUNS / 2);
    expect(compiled).toBeGreaterThan(RUNS / 8);
  });
});

describe('walkRpcResult', () => {
  it('lists equal bigints and a Date reached twice as referential equalities, as superjson does', () => {
    const when = new Date(5);
    const result = [
      { views: 7n, at: when, rows: [{ views: 7n }] },
      { views: 7n, at: when },
    ];
    const walked = walkRpcResult(result);
    expect(walked?.meta?.referentialEqualities).toEqual({ '0.views': ['1.views', '0.rows.0.views'], '0.at': ['1.at'] });
    expect(JSON.stringify(walked)).toBe(JSON.stringify(rpcSuperJSON.serialize(result)));
  });

  it('leaves to superjson what it does not cover, with the same answer', () => {
    const author = { id: 1, createdAt: new Date(0) };
    const hostile = [
      [{ author }, { author }],
      new Map([[1, 2]]),
      { at: new Date(Number.NaN) },
      { nested: [{ x: -0 }, -0] },
      JSON.parse('{"__proto__": 1}'),
      // eslint-disable-next-line no-sparse-arrays
      [1, , 3],
    ];
    for (const value of hostile) {
      expect(walkRpcResult(value)).toBeUndefined();
      expect(outcome(() => serializeRpcResult(value))).toEqual(outcome(() => superjsonBody(value)));
    }
  });

  it('writes Decimal, Bytes and far dates in their superjson forms', () => {
    const value = {
      price: new Decimal('-1e-9'),
      avatar: Buffer.from([0, 255]),
      ancient: new Date(Date.UTC(-50, 0, 1)),
      far: new Date(8.64e15),
    };
    expect(JSON.stringify(walkRpcResult(value))).toBe(JSON.stringify(rpcSuperJSON.serialize(value)));
  });

  it('counts path segments as superjson splits them, escaped dots inside a segment', () => {
    expect(pathSegmentCount('0.author.createdAt')).toBe(3);
    expect(pathSegmentCount('a\\.b.c')).toBe(2);
    expect(pathSegmentCount('a\\\\.b')).toBe(2);
    expect(pathSegmentCount('')).toBe(1);
  });
});
