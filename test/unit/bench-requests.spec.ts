import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { describe, expect, it } from '@jest/globals';
import { validateSync } from 'class-validator';
import fc from 'fast-check';

import { BASELINE_CONTROLLERS } from '../../bench/baseline/baseline-controllers.js';
import { classTransformerLite } from '../../bench/baseline/nest-team/class-transformer-lite.js';
import { NEST_TEAM_CONTROLLERS } from '../../bench/baseline/nest-team/nest-team.controllers.js';
import { CreatePostDocument } from '../../bench/baseline/nest-team/post.dto.js';
import { parseBenchOptions } from '../../bench/bench-options.js';
import { latencySummary, policyCallers } from '../../bench/live/run-live-fan-out.js';
import { quartiles } from '../../bench/report/bench-report.js';
import { checkParity, PARITY_SAMPLE } from '../../bench/runner/parity.js';
import { baselineRequestOf, comparisonOf, COMPARISONS, requestAt, SCENARIOS } from '../../bench/scenarios.js';
import { decodeServerArgs, encodeServerArgs } from '../../bench/server/server-protocol.js';
import { draw } from '../../bench/varied-requests.js';

const SEED = { seed: 46, numRuns: 200 };
const CONNECTIONS = parseBenchOptions([]).connections;

describe('bench varied requests', () => {
  it('draws every value of [0, size) once in any size consecutive requests, the same on every call', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(100), fc.integer({ min: 1, max: 2_000 }), (start, salt, size) => {
        const values = Array.from({ length: size }, (_, k) => draw(start + k, salt, size));
        expect(new Set(values).size).toBe(size);
        expect(values.every((value) => Number.isInteger(value) && value >= 0 && value < size)).toBe(true);
        expect(draw(start, salt, size)).toBe(values[0]);
      }),
      SEED,
    );
  });

  it('varies every read but the hot one: no two requests sent together are alike', () => {
    const varied = SCENARIOS.filter(
      (s) => !s.write && ['hand-written', 'as-of'].includes(comparisonOf(s)) && s.id !== 'rest-fetch-hot',
    );
    expect(varied.length).toBeGreaterThanOrEqual(10);
    for (const scenario of varied) {
      expect(scenario.vary).toBeDefined();
      expect(requestAt(scenario, 0).path).toBe(scenario.path);
      const paths = Array.from({ length: 500 }, (_, n) => requestAt(scenario, n).path);
      for (let start = 0; start + CONNECTIONS <= paths.length; start++)
        expect(new Set(paths.slice(start, start + CONNECTIONS)).size).toBe(CONNECTIONS);
    }
  });

  it('keeps one request repeated in the hot read, labelled as such, and in the conditional GETs', () => {
    const hot = SCENARIOS.find((s) => s.id === 'rest-fetch-hot')!;
    expect(hot.title).toMatch(/hot: one request repeated/);
    for (const scenario of SCENARIOS.filter((s) => s === hot || comparisonOf(s) === 'conditional' || s.write)) {
      expect(scenario.vary).toBeUndefined();
      expect(requestAt(scenario, 7)).toBe(scenario);
    }
  });

  it('sends an asOf read to one side, the same read without asOf to the other, and a write with history to one side', () => {
    const args = (path: string) => JSON.parse(decodeURIComponent(path.split('?q=')[1]!));
    const asOfReads = SCENARIOS.filter((s) => comparisonOf(s) === 'as-of');
    expect(asOfReads.length).toBeGreaterThanOrEqual(2);
    for (const scenario of asOfReads) {
      for (const n of [0, 1, 17]) {
        const { asOf, ...read } = args(requestAt(scenario, n).path);
        expect(new Date(asOf).toISOString()).toBe(asOf);
        expect(args(requestAt(baselineRequestOf(scenario), n).path)).toEqual(read);
      }
    }
    const withHistory = SCENARIOS.filter((s) => comparisonOf(s) === 'history');
    expect(withHistory.map((s) => s.id)).toEqual([
      'rpc-create-history',
      'rpc-update-history',
      'rest-update-history',
      'rpc-create-history-captured',
      'rpc-update-history-captured',
    ]);
    for (const { id, title, oursOptions, baselineOptions, comparison, ...write } of withHistory) {
      const { id: _, title: __, ...plain } = SCENARIOS.find((s) => id.startsWith(`${s.id}-history`))!;
      expect(write).toEqual(plain);
      expect(oursOptions?.rules?.Post?.history).toBe(true);
      // Both sides capture changes, or neither: the difference is history's.
      expect(oursOptions?.onChange).toBe(baselineOptions?.onChange);
      expect(COMPARISONS[comparison!].baselineServes).toBe('ours-without-options');
    }
  });

  it('checks parity on several requests of a varied read and names the one that differs', async () => {
    const answer = (differAt?: string) =>
      createServer((req, res) => {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ path: req.url, differs: req.url === differAt }));
      });
    const scenario = SCENARIOS.find((s) => s.id === 'rest-fetch')!;
    const last = requestAt(scenario, PARITY_SAMPLE - 1).path;
    const servers = [answer(), answer(last), answer(requestAt(scenario, PARITY_SAMPLE).path)];
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
    const origin = (server: Server) => ({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    try {
      const [ours, wrong, beyond] = servers.map(origin) as [{ origin: string }, { origin: string }, { origin: string }];
      expect(await checkParity(scenario, ours, beyond)).toEqual({ verdict: 'identical' });
      expect(await checkParity(scenario, ours, wrong)).toEqual({
        verdict: 'different',
        detail: `${last}: $.differs: false vs true`,
      });
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});

describe('bench baselines', () => {
  it('runs both baselines by default, or the one --baseline names', () => {
    expect(parseBenchOptions([]).baselines).toEqual(['careful', 'nest']);
    expect(parseBenchOptions(['--baseline', 'nest']).baselines).toEqual(['nest']);
    expect(parseBenchOptions(['--baseline', 'careful']).baselines).toEqual(['careful']);
    expect(() => parseBenchOptions(['--baseline', 'lazy'])).toThrow(/--baseline must be careful, nest or both/);
  });

  it('passes the baseline to the server processes, and compares each in its own table', () => {
    const args = { side: 'baseline' as const, scenario: 'rest-list', databaseUrl: 'file:x.db', port: 3001 };
    expect(decodeServerArgs(encodeServerArgs({ ...args, baseline: 'nest' }))).toMatchObject({ baseline: 'nest' });
    expect(decodeServerArgs(encodeServerArgs(args))).toMatchObject({ baseline: 'careful' });
    const read = SCENARIOS.find((s) => s.id === 'rest-list')!;
    expect(comparisonOf(read, 'nest')).toBe('nest-team');
    expect(comparisonOf(read)).toBe('hand-written');
    expect(
      comparisonOf(
        SCENARIOS.find((s) => s.id === 'rest-include-304')!,
        'nest',
      ),
    ).toBe('conditional');
  });

  it('has a careful and a Nest-team controller for every scenario compared with a hand-written one', () => {
    const handWritten = SCENARIOS.filter((s) => comparisonOf(s) === 'hand-written').map((s) => s.id);
    expect(Object.keys(BASELINE_CONTROLLERS).sort()).toEqual([...handWritten].sort());
    expect(Object.keys(NEST_TEAM_CONTROLLERS).sort()).toEqual([...handWritten].sort());
  });

  it("validates nested DTOs as class-transformer's @Type would let class-validator", () => {
    const body = (attributes: unknown, authorId: unknown = 7) => ({
      data: {
        type: 'post',
        attributes,
        relationships: { author: { data: { type: 'user', id: authorId } } },
      },
    });
    const errors = (plain: unknown) =>
      validateSync(classTransformerLite.plainToInstance(CreatePostDocument, plain) as object);
    expect(errors(body({ title: 'A post', rating: 3.5 }))).toEqual([]);
    expect(errors(body({ title: 42 }))).not.toEqual([]);
    expect(errors(body({ title: 'A post' }, 'seven'))).not.toEqual([]);
  });
});

describe('bench statistics', () => {
  it('takes the interquartile range of the paired ratios', () => {
    expect(quartiles([1, 2, 3, 4, 5])).toEqual([2, 4]);
    expect(quartiles([1, 2])).toEqual([1.25, 1.75]);
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 10, noNaN: true }), { minLength: 1, maxLength: 30 }), (values) => {
        const sorted = [...values].sort((a, b) => a - b);
        const [low, high] = quartiles(sorted);
        expect(low).toBeGreaterThanOrEqual(sorted[0]!);
        expect(low).toBeLessThanOrEqual(high);
        expect(high).toBeLessThanOrEqual(sorted.at(-1)!);
      }),
      SEED,
    );
  });

  it('summarizes delivery latencies by p50, p99 and max', () => {
    const latencies = Array.from({ length: 100 }, (_, k) => 100 - k);
    expect(latencySummary(latencies)).toEqual({ latencyP50Ms: 51, latencyP99Ms: 100, latencyMaxMs: 100 });
  });
});

describe('bench live queries through policies', () => {
  it('makes each write concern 1% of the subscribers, other ones at every write', () => {
    for (const [subscribers, users] of [
      [10_000, 1_000],
      [1_000, 1_000],
      [200, 1_000],
    ] as const) {
      const callers = policyCallers(subscribers, users);
      const userOf = Array.from({ length: subscribers }, (_, n) => callers.userOf(n));
      const seen = new Set<number>();
      for (let write = 0; write < 5; write++) {
        const authors = new Set(callers.authorsOf(write));
        expect(userOf.filter((user) => authors.has(user)).length).toBe(subscribers / 100);
        for (const author of authors) {
          expect(seen.has(author)).toBe(false);
          seen.add(author);
        }
      }
    }
  });
});
