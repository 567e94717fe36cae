import { describe, expect, it } from '@jest/globals';

import { pickOperation, SOAK_OPERATIONS } from '../../bench/soak/soak-operations.js';
import {
  countByOperation,
  formatSoakReport,
  percentile,
  type SoakSample,
  summarizeIntervals,
} from '../../bench/soak/soak-report.js';
import { verifyWrites, WriteLedger } from '../../bench/soak/write-ledger.js';

const sample = (at: number, latencyMs: number, ok = true, operation = 'rest-fetch'): SoakSample => ({
  at,
  latencyMs,
  ok,
  operation,
});

describe('soak write verification', () => {
  it('passes when created rows hold their last acknowledged title and deleted rows are gone', () => {
    const ledger = new WriteLedger();
    ledger.created(1, 'a');
    ledger.updated(1, 'b');
    ledger.created(2, 'c');
    ledger.removed(2);
    ledger.created(3, 'd');
    expect(ledger.ids().sort()).toEqual([1, 2, 3]);
    const result = verifyWrites(ledger, [
      { id: 1, title: 'b' },
      { id: 3, title: 'd' },
    ]);
    expect(result).toMatchObject({ ok: true, expectedPresent: 2, foundPresent: 2, expectedAbsent: 1, foundAbsent: 1 });
    expect(result.acknowledged).toEqual({ creates: 3, updates: 1, deletes: 1 });
  });

  it('names missing rows, rows holding an older title and deleted rows found again', () => {
    const ledger = new WriteLedger();
    ledger.created(1, 'a');
    ledger.updated(1, 'b');
    ledger.created(2, 'c');
    ledger.created(3, 'd');
    ledger.removed(3);
    const result = verifyWrites(ledger, [
      { id: 1, title: 'a' },
      { id: 3, title: 'd' },
    ]);
    expect(result).toMatchObject({
      ok: false,
      missing: [2],
      staleTitle: [1],
      resurrected: [3],
      foundPresent: 1,
      foundAbsent: 0,
    });
  });

  it('stops checking an id whose write was not acknowledged', () => {
    const ledger = new WriteLedger();
    ledger.created(1, 'a');
    ledger.forget(1);
    expect(ledger.ids()).toEqual([]);
    expect(ledger.uncertain).toBe(1);
    expect(verifyWrites(ledger, []).ok).toBe(true);
  });
});

describe('soak report', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('buckets requests, errors and latency percentiles by minute', () => {
    const samples = [sample(0, 5), sample(30_000, 1, false), sample(59_999, 3), sample(60_000, 10), sample(130_000, 2)];
    expect(summarizeIntervals(samples)).toEqual([
      { index: 0, requests: 3, errors: 1, p50: 3, p99: 5 },
      { index: 1, requests: 1, errors: 0, p50: 10, p99: 10 },
      { index: 2, requests: 1, errors: 0, p50: 2, p99: 2 },
    ]);
  });

  it('counts by operation and prints the figures docs/performance.md quotes', () => {
    const samples = [sample(0, 1, true, 'rpc-create'), sample(1, 1, false, 'rpc-create'), sample(2, 1)];
    expect(countByOperation(samples)).toEqual({
      'rpc-create': { requests: 2, errors: 1 },
      'rest-fetch': { requests: 1, errors: 0 },
    });
    const ledger = new WriteLedger();
    ledger.created(1, 'a');
    const text = formatSoakReport({
      durationSeconds: 180,
      connections: 10,
      requests: 3,
      requestsPerSecond: 3 / 180,
      errors: 1,
      operations: countByOperation(samples),
      intervals: summarizeIntervals(samples),
      memory: {
        start: { at: 0, rssMb: 150, heapUsedMb: 40 },
        end: { at: 180_000, rssMb: 152, heapUsedMb: 41 },
        peakRssMb: 160,
      },
      writes: verifyWrites(ledger, [{ id: 1, title: 'a' }]),
      errorSamples: [],
    });
    expect(text).toContain('| server RSS start / end / peak');
    expect(text).toContain('150 / 152 / 160 MB');
    expect(text).toContain('1 of 1');
  });
});

describe('soak operation mix', () => {
  it('reads and writes posts on both interfaces, creates outweighing deletes', () => {
    const names = SOAK_OPERATIONS.map((operation) => operation.name);
    for (const kind of ['read', 'create', 'update', 'delete'] as const) {
      const ofKind = SOAK_OPERATIONS.filter((operation) => operation.kind === kind);
      expect(ofKind.some((operation) => operation.name.startsWith('rest-'))).toBe(true);
      expect(ofKind.some((operation) => operation.name.startsWith('rpc-'))).toBe(true);
    }
    const weight = (kind: string) =>
      SOAK_OPERATIONS.filter((operation) => operation.kind === kind).reduce(
        (sum, operation) => sum + operation.weight,
        0,
      );
    expect(weight('create')).toBeGreaterThan(weight('delete'));
    expect(new Set(names).size).toBe(names.length);
  });

  it('picks operations in proportion to their weights', () => {
    expect(pickOperation(0)).toBe(SOAK_OPERATIONS[0]);
    expect(pickOperation(0.999999)).toBe(SOAK_OPERATIONS.at(-1));
    const counts = new Map<string, number>();
    for (let i = 0; i < 1000; i++) {
      const name = pickOperation(i / 1000).name;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    expect(counts.get('rest-fetch')).toBe(120);
    expect(counts.get('rpc-delete')).toBe(60);
  });

  it('reads the created id from the JSON:API document and from the RPC body', () => {
    const restCreate = SOAK_OPERATIONS.find((operation) => operation.name === 'rest-create')!;
    const rpcCreate = SOAK_OPERATIONS.find((operation) => operation.name === 'rpc-create')!;
    expect(restCreate.createdId!('{"data":{"type":"post","id":"17"}}')).toBe(17);
    expect(rpcCreate.createdId!('{"data":{"id":18,"title":"x"}}')).toBe(18);
  });
});
