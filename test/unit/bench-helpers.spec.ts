import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from '@jest/globals';

import { parseBenchOptions } from '../../bench/bench-options.js';
import {
  formatMemoryTable,
  formatScenarioTable,
  markdownTable,
  pairedRatio,
  type ScenarioResult,
  type SideSummary,
  summarizeSide,
} from '../../bench/report/bench-report.js';
import { findDifference, shapeOf } from '../../bench/runner/compare-documents.js';
import type { RoundResult } from '../../bench/runner/load.js';
import { assertStatus } from '../../bench/runner/measure.js';
import { type Answer, notModifiedDifference, prepareConditional } from '../../bench/runner/parity.js';
import { comparisonOf, COMPARISONS, SCENARIOS } from '../../bench/scenarios.js';
import { replayingClient } from '../../bench/server/replaying-client.js';
import { decodeServerArgs, encodeServerArgs } from '../../bench/server/server-protocol.js';

const round = (
  rps: number,
  p50: number,
  p99: number,
  serverRequests: number,
  queries: number,
  cpuMicros = 0,
): RoundResult => ({
  rps,
  p50,
  p99,
  requests: serverRequests,
  errors: 0,
  statuses: { 200: serverRequests },
  serverRequests,
  queries,
  cpuMicros,
});

/** A scenario's result with `side` on both sides, level unless `overrides` say otherwise. */
const scenarioResult = (side: SideSummary, overrides: Partial<ScenarioResult>): ScenarioResult => ({
  id: 'x',
  title: 'X',
  comparison: 'hand-written',
  sides: COMPARISONS['hand-written'].sides,
  ours: side,
  baseline: side,
  ratio: 1,
  ratioRange: [1, 1],
  cpuRatio: 1,
  spread: { ratio: [1, 1], cpuRatio: [1, 1] },
  parity: { verdict: 'identical' },
  ...overrides,
});

describe('bench options', () => {
  it('has defaults that fit the 10-minute budget', () => {
    const options = parseBenchOptions([]);
    expect(options).toMatchObject({
      db: 'sqlite',
      platform: 'express',
      connections: 10,
      scenario: '',
      rows: [1000, 10000, 100000],
      pin: true,
    });
    expect(options.rounds % 2).toBe(0);
    expect(parseBenchOptions(['--no-pin']).pin).toBe(false);
    expect(options.duration * options.rounds).toBeLessThanOrEqual(12);
  });

  it('reads every option, accepts postgresql for postgres and sorts the scaling sizes', () => {
    const options = parseBenchOptions(
      [
        '--duration',
        '2',
        '--connections',
        '4',
        '--db',
        'postgresql',
        '--platform',
        'fastify',
        '--scenario',
        'rpc',
        '--rows',
        '10000,1000',
      ],
      { BENCH_POSTGRES_URL: 'postgresql://x@127.0.0.1/db' },
    );
    expect(options).toMatchObject({
      duration: 2,
      connections: 4,
      db: 'postgres',
      platform: 'fastify',
      scenario: 'rpc',
      rows: [1000, 10000],
      postgresUrl: 'postgresql://x@127.0.0.1/db',
    });
  });

  it('accepts mariadb (or mysql) with its admin URL from --mariadb-url or BENCH_MARIADB_URL', () => {
    expect(parseBenchOptions(['--db', 'mariadb'])).toMatchObject({
      db: 'mariadb',
      mariadbUrl: 'mysql://root@127.0.0.1:3306/test',
    });
    expect(parseBenchOptions(['--db', 'mysql'], { BENCH_MARIADB_URL: 'mysql://u@127.0.0.1/b' })).toMatchObject({
      db: 'mariadb',
      mariadbUrl: 'mysql://u@127.0.0.1/b',
    });
    expect(parseBenchOptions(['--db', 'mariadb', '--mariadb-url', 'mariadb://v@h/c']).mariadbUrl).toBe(
      'mariadb://v@h/c',
    );
    expect(() => parseBenchOptions(['--db', 'oracle'])).toThrow(/--db must be sqlite, postgres or mariadb/);
    expect(() => parseBenchOptions(['--db', 'constructor'])).toThrow(/--db must be/);
  });

  it('skips the scaling table with --rows 0 and refuses bad values', () => {
    expect(parseBenchOptions(['--rows', '0']).rows).toEqual([]);
    expect(() => parseBenchOptions(['--db', 'sqlserver'])).toThrow('--db must be sqlite, postgres or mariadb');
    expect(() => parseBenchOptions(['--platform', 'koa'])).toThrow('--platform must be express or fastify');
    expect(() => parseBenchOptions(['--connections', '1.5'])).toThrow('--connections must be a positive integer');
    expect(() => parseBenchOptions(['--duration', '0'])).toThrow('--duration must be a positive number');
    expect(() => parseBenchOptions(['--bogus'])).toThrow();
  });
});

describe('bench --tracing', () => {
  it('is off by default', () => {
    expect(parseBenchOptions([]).tracing).toBe(false);
    expect(parseBenchOptions(['--tracing']).tracing).toBe(true);
  });

  it('passes the mode to the server processes', () => {
    const args = { side: 'ours' as const, scenario: 'rest-list', databaseUrl: 'file:x.db', port: 3001 };
    expect(decodeServerArgs(encodeServerArgs({ ...args, tracing: true }))).toMatchObject({ tracing: true });
    expect(decodeServerArgs(encodeServerArgs(args))).toMatchObject({ tracing: false });
    expect(() => decodeServerArgs(encodeServerArgs(args).slice(0, -1))).toThrow(/traced\|untraced/);
  });
});

describe('bench --live and --live-fan-out', () => {
  it('are off by default; --subscribers counts the fan-out', () => {
    expect(parseBenchOptions([])).toMatchObject({ live: false, liveFanOut: false, subscribers: 10_000 });
    expect(parseBenchOptions(['--live', '--live-fan-out', '--subscribers', '10'])).toMatchObject({
      live: true,
      liveFanOut: true,
      subscribers: 10,
    });
  });

  it('passes live queries on to the server processes', () => {
    const args = { side: 'ours' as const, scenario: 'rest-list', databaseUrl: 'file:x.db', port: 3001 };
    expect(decodeServerArgs(encodeServerArgs({ ...args, live: true }))).toMatchObject({ live: true });
    expect(decodeServerArgs(encodeServerArgs(args))).toMatchObject({ live: false });
  });
});

describe('bench --no-coalesce', () => {
  it('is off by default, and passed to the server processes', () => {
    expect(parseBenchOptions([]).noCoalesce).toBe(false);
    expect(parseBenchOptions(['--no-coalesce']).noCoalesce).toBe(true);
    const args = { side: 'ours' as const, scenario: 'rest-list', databaseUrl: 'file:x.db', port: 3001 };
    expect(decodeServerArgs(encodeServerArgs({ ...args, uncoalesced: true }))).toMatchObject({ uncoalesced: true });
    expect(decodeServerArgs(encodeServerArgs(args))).toMatchObject({ uncoalesced: false });
  });
});

describe('bench --no-db', () => {
  it('is off by default, and refused with --soak, which checks what the database holds', () => {
    expect(parseBenchOptions([]).noDb).toBe(false);
    expect(parseBenchOptions(['--no-db']).noDb).toBe(true);
    expect(() => parseBenchOptions(['--no-db', '--soak'])).toThrow(/--no-db/);
  });

  it('passes the mode to the server processes', () => {
    const args = {
      side: 'ours' as const,
      scenario: 'rest-list',
      databaseUrl: 'file:x.db',
      port: 3001,
      platform: 'fastify' as const,
    };
    expect(decodeServerArgs(encodeServerArgs({ ...args, replay: true }))).toEqual({
      ...args,
      replay: true,
      tracing: false,
      live: false,
      uncoalesced: false,
      baseline: 'careful',
    });
    expect(decodeServerArgs(encodeServerArgs(args))).toEqual({
      ...args,
      replay: false,
      tracing: false,
      live: false,
      uncoalesced: false,
      baseline: 'careful',
    });
  });

  it('answers each model operation with its first result from memory, a fresh array each time, and counts every answer', async () => {
    const calls: string[] = [];
    const real = {
      post: {
        findMany: async (args: unknown) => (calls.push(`findMany ${JSON.stringify(args)}`), [{ id: calls.length }]),
        count: async () => (calls.push('count'), 7),
      },
      $connect: async () => 'connected',
    };
    let answers = 0;
    const client = replayingClient(real, () => answers++);
    const first = await client.post.findMany({ take: 1 });
    first.pop();
    expect(await client.post.findMany({ take: 2 })).toEqual([{ id: 1 }]);
    expect([await client.post.count(), await client.post.count()]).toEqual([7, 7]);
    expect(calls).toEqual(['findMany {"take":1}', 'count']);
    expect(answers).toBe(4);
    expect(await client.$connect()).toBe('connected');
  });

  it('runs $transaction steps on the replaying client: an array in order, a callback with the client', async () => {
    const real = { post: { create: async (args: { data: { id: number } }) => args.data } };
    const client = replayingClient(
      real as typeof real & { $transaction: (steps: unknown) => Promise<unknown> },
      () => {},
    );
    await client.post.create({ data: { id: 1 } });
    expect(await client.$transaction([client.post.create({ data: { id: 2 } }), Promise.resolve('x')])).toEqual([
      { id: 1 },
      'x',
    ]);
    expect(await client.$transaction(async (tx: typeof client) => tx.post.create({ data: { id: 3 } }))).toEqual({
      id: 1,
    });
  });
});

describe('bench report', () => {
  it('averages rounds and divides SQL statements by the requests the server received', () => {
    const summary = summarizeSide(
      [round(100, 2, 10, 500, 1000, 250_000), round(200, 4, 20, 1500, 3000, 750_000)],
      64 * 2 ** 20,
    );
    expect(summary).toMatchObject({
      rps: 150,
      p50: 3,
      p99: 15,
      sqlPerRequest: 2,
      cpuPerRequest: 500,
      peakRssMb: 64,
      errors: 0,
    });
  });

  it('takes the median of the paired round ratios ours / baseline, so one disturbed round does not move it', () => {
    const rounds = (ours: number[], baseline: number[]) => ({
      ours: ours.map((rps) => round(rps, 1, 1, 1, 1)),
      baseline: baseline.map((rps) => round(rps, 1, 1, 1, 1)),
    });
    const paired = pairedRatio(rounds([90, 95, 40, 92], [100, 100, 100, 100]));
    expect(paired.ratio).toBeCloseTo(0.91);
    expect(paired.ratioRange).toEqual([0.4, 0.95]);
    expect(pairedRatio(rounds([90, 80, 100], [100, 100, 100])).ratio).toBeCloseTo(0.9);
    expect(pairedRatio(rounds([90], [0]))).toEqual({
      ratio: 0,
      ratioRange: [0, 0],
      cpuRatio: 0,
      spread: { ratio: [0, 0], cpuRatio: [0, 0] },
    });
  });

  it('takes the median of the paired CPU-per-request ratios the same way', () => {
    const cpuRounds = (ours: number[], baseline: number[]) => ({
      ours: ours.map((cpuMicros) => round(100, 1, 1, 100, 100, cpuMicros)),
      baseline: baseline.map((cpuMicros) => round(100, 1, 1, 100, 100, cpuMicros)),
    });
    // Per request: ours 105, 110, 300 (one disturbed round), 104 against 100 each.
    expect(
      pairedRatio(cpuRounds([10_500, 11_000, 30_000, 10_400], [10_000, 10_000, 10_000, 10_000])).cpuRatio,
    ).toBeCloseTo(1.075);
    expect(pairedRatio(cpuRounds([9_000, 12_000, 10_000], [10_000, 10_000, 10_000])).cpuRatio).toBeCloseTo(1);
  });

  it('formats aligned Markdown tables', () => {
    expect(
      markdownTable(
        ['name', 'n'],
        [
          ['a', '1'],
          ['bbb', '22'],
        ],
      ),
    ).toBe(['| name |  n |', '|------|---:|', '| a    |  1 |', '| bbb  | 22 |'].join('\n'));
    const side = summarizeSide([round(1000, 1.25, 5, 10, 20)], 100 * 2 ** 20);
    const table = formatScenarioTable([
      scenarioResult(side, {
        ratioRange: [0.95, 1.05],
        cpuRatio: 1.02,
        spread: { ratio: [0.98, 1.01], cpuRatio: [1, 1.03] },
      }),
    ]);
    expect(table).toContain('| X        |       1000 |           1000 | 1.00 (0.98-1.01) |    0.95-1.05 |');
    expect(table).toContain('2.00 / 2.00');
    expect(table).toContain('0 / 0 | 1.02 (1.00-1.03) |');
  });

  it('formats the memory table: peak RSS, and the heap once started and after the rounds', () => {
    const ours = summarizeSide([round(1000, 1, 5, 10, 20)], 300 * 2 ** 20, { started: 31.94, loaded: 43.4 });
    const base = summarizeSide([round(1000, 1, 5, 10, 20)], 280 * 2 ** 20, { started: 24.6, loaded: 35.55 });
    expect(formatMemoryTable([scenarioResult(ours, { baseline: base })]).split('\n')).toEqual([
      '| Scenario | peak RSS MB (ours / base) | heap MB after start-up (ours / base) | heap MB after load (ours / base) |',
      '|----------|--------------------------:|-------------------------------------:|---------------------------------:|',
      '| X        |                 300 / 280 |                          31.9 / 24.6 |                      43.4 / 35.5 |',
    ]);
  });
});

describe('bench document comparison', () => {
  it('ignores key order and reports the first differing path', () => {
    expect(findDifference({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBeUndefined();
    expect(findDifference({ a: { b: 1 } }, { a: { b: 2 } })).toBe('$.a.b: 1 vs 2');
    expect(findDifference({ a: [1] }, { a: [1, 2] })).toBe('$.a: 1 items vs 2');
    expect(findDifference({ a: 1 }, {})).toBe('$.a: 1 vs missing');
  });

  it('compares writes by shape: leaves become their types', () => {
    expect(shapeOf({ id: 5, title: 't', at: null, tags: [{ id: 1 }] })).toEqual({
      id: 'number',
      title: 'string',
      at: 'null',
      tags: [{ id: 'number' }],
    });
  });
});

describe('bench conditional GET', () => {
  const read = SCENARIOS.find((s) => s.id === 'rest-include')!;
  const TAG = '"sha256-of-the-body"';

  /** A server answering every GET with one JSON body and its tag; `honours: false` ignores If-None-Match. */
  async function withServer(honours: boolean, run: (server: { origin: string }) => Promise<void>): Promise<void> {
    const server: Server = createServer((req, res) => {
      res.setHeader('ETag', TAG);
      if (honours && req.headers['if-none-match'] === TAG) {
        res.statusCode = 304;
        res.end();
        return;
      }
      res.setHeader('Content-Type', 'application/vnd.api+json');
      res.end(JSON.stringify({ data: [{ type: 'post', id: '1' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      await run({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('is a variant of a REST and an RPC read: the same request, our module on both sides', () => {
    const conditional = SCENARIOS.filter((s) => comparisonOf(s) === 'conditional');
    expect(conditional.map((s) => s.id)).toEqual([
      'rest-include-304',
      'rpc-find-many-304',
      'rest-include-304-changes',
      'rpc-find-many-304-changes',
    ]);
    for (const scenario of conditional) {
      const original = SCENARIOS.find((s) => scenario.id.startsWith(`${s.id}-304`))!;
      expect(comparisonOf(original)).toBe('hand-written');
      // Revalidated from changes, both sides run with the options it needs; otherwise each request reads.
      const oursOptions = scenario.id.endsWith('-changes')
        ? { live: {}, caching: { revalidate: 'changes' } }
        : { coalesceReads: false };
      // One request: the first of the varied read, whose tag the runner fetches.
      expect({ ...scenario, id: original.id, title: original.title, comparison: undefined }).toEqual({
        ...original,
        vary: undefined,
        oursOptions,
        comparison: undefined,
      });
    }
    // Before the writes, which would change what the tag names.
    const lastRead = Math.max(...conditional.map((s) => SCENARIOS.indexOf(s)));
    expect(SCENARIOS.findIndex((s) => s.write)).toBeGreaterThan(lastRead);
  });

  it('takes the tag of the full answer and measures ours with If-None-Match, expecting 304, against the full read', async () => {
    await withServer(true, async (server) => {
      const { parity, requests } = await prepareConditional(read, server, server);
      expect(parity).toEqual({ verdict: 'not-modified' });
      expect(requests.baseline).toBe(read);
      expect(requests.ours).toEqual({ ...read, headers: { 'If-None-Match': TAG }, status: 304 });
    });
  });

  it('fails loudly when the server answers the conditional request in full', async () => {
    await withServer(false, async (server) => {
      await expect(prepareConditional(read, server, server)).rejects.toThrow(
        `rest-include with If-None-Match: ${TAG}: status 200, expected 304`,
      );
    });
  });

  it('accepts only a 304 without a body carrying the tag', () => {
    const answer = (overrides: Partial<Answer>): Answer => ({
      status: 304,
      contentType: '',
      etag: TAG,
      body: '',
      ...overrides,
    });
    expect(notModifiedDifference(answer({}), TAG)).toBeUndefined();
    expect(notModifiedDifference(answer({ status: 200, body: { data: [] } }), TAG)).toBe(
      'status 200, expected 304: {"data":[]}',
    );
    expect(notModifiedDifference(answer({ body: 'x' }), TAG)).toBe('a 304 with a body: x');
    expect(notModifiedDifference(answer({ etag: '"other"' }), TAG)).toBe(`ETag "other" on the 304, expected ${TAG}`);
    expect(notModifiedDifference(answer({ etag: null }), TAG)).toBe(`ETag missing on the 304, expected ${TAG}`);
  });

  it('fails the run when a round answered anything but 304', () => {
    const notModified = { ...read, status: 304 };
    const rounds: RoundResult[] = [
      { ...round(100, 1, 1, 100, 0), statuses: { 304: 100 } },
      { ...round(100, 1, 1, 100, 0), statuses: { 304: 97, 200: 3 }, errors: 3 },
    ];
    expect(() => assertStatus(rounds.slice(0, 1), notModified, 'rest-include-304')).not.toThrow();
    expect(() => assertStatus(rounds, notModified, 'rest-include-304')).toThrow(
      'rest-include-304: 3 requests not answered 304 (by status {"200":3,"304":197}',
    );
  });

  it('names the two sides in its table', () => {
    const side = summarizeSide([{ ...round(1000, 1, 5, 10, 20), statuses: { 304: 10 } }], 0);
    const table = formatScenarioTable(
      [
        scenarioResult(side, {
          title: 'REST include, 304 vs 200',
          comparison: 'conditional',
          sides: COMPARISONS.conditional.sides,
          parity: { verdict: 'not-modified' },
        }),
      ],
      COMPARISONS.conditional,
    );
    expect(table.split('\n')[0]).toContain('| 304 req/s | 200 req/s |');
    expect(table).toContain('CPU µs/req (304 / 200)');
    expect(table.split('\n')[2]).toMatch(/\|\s+304 \|$/);
  });
});
