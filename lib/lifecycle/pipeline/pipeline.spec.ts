import fc from 'fast-check';

import { requestCallOf } from '../../telemetry/request-telemetry.js';
import type { Exchange, InterfaceBehaviour, Stage } from './exchange.js';
import { type PipelineParts, requestStages, runStages } from './pipeline.js';

const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261127), numRuns: Number(process.env.FUZZ_RUNS ?? 300) };

/** Stages that log their way in and out; the one at `answering` answers without going on. */
function loggedStages(count: number, answering: number, log: string[], failing: boolean): Stage[] {
  return Array.from({ length: count }, (_, index): Stage => async (_exchange, next) => {
    log.push(`in ${index}`);
    try {
      if (index !== answering) return await next();
      if (failing) throw new Error(`stage ${index}`);
      return { status: 200 };
    } finally {
      log.push(`out ${index}`);
    }
  });
}

describe('runStages', () => {
  it('passes a request through each stage once, in order, up to the one that answers, and back out in reverse', async () => {
    const stages = fc.integer({ min: 1, max: 12 }).chain((count) => fc.tuple(fc.constant(count), fc.nat(count - 1)));
    await fc.assert(
      fc.asyncProperty(stages, fc.boolean(), async ([count, answering], failing) => {
        const log: string[] = [];
        const answered = runStages(loggedStages(count, answering, log, failing), {} as Exchange);
        await (failing
          ? expect(answered).rejects.toThrow(`stage ${answering}`)
          : expect(answered).resolves.toEqual({ status: 200 }));
        const entered = Array.from({ length: answering + 1 }, (_, index) => index);
        expect(log).toEqual([
          ...entered.map((index) => `in ${index}`),
          ...entered.reverse().map((index) => `out ${index}`),
        ]);
      }),
      RUNS,
    );
  });
});

describe('requestStages', () => {
  /** The models the fake client notes of a write's queries. */
  const reached = new Set<string>();
  const log: string[] = [];

  /** The instance's services, as fakes that log what the stages ask of them. */
  function parts(raw: object): PipelineParts {
    return {
      drain: { admit: (response: unknown) => (log.push('admit'), response), release: () => log.push('release') },
      options: { caching: false, coalesceReads: false },
      idempotent: { keyOf: () => undefined },
      live: {
        settings: {},
        committed: (models: string[]) => log.push(`committed ${models}, call kept: ${!!requestCallOf(raw)}`),
      },
      clients: { recordModels: () => reached },
    } as unknown as PipelineParts;
  }

  const behaviour = { conditionalWrites: new Set(), taggedWrites: new Set() } as unknown as InterfaceBehaviour;

  /** A request of `method` to a response whose headers land in `headers`. */
  function exchangeOf(method: string, headers: Record<string, string>, run: Exchange['run']): Exchange {
    const raw = { method, headers: { 'x-request-id': 'r-1' } };
    const response = {
      statusCode: 0,
      headersSent: false,
      getHeader: () => undefined,
      setHeader: (name: string, value: string) => (headers[name] = value),
      end: () => log.push('end'),
    };
    const request = { method, path: '/post/create', query: '', headers: raw.headers, body: undefined, raw };
    const scope = { interface: 'rpc' as const, operation: 'create' };
    return { raw, response, scope, request, run, contentType: 'application/json', behaviour };
  }

  beforeEach(() => {
    log.length = 0;
    reached.clear();
  });

  it('leaves out the stages of the features the options leave off', () => {
    const off = { ...parts({}), live: { settings: undefined } } as unknown as PipelineParts;
    const on = {
      ...off,
      options: {
        caching: { cacheControl: 'no-cache', vary: [], revalidate: 'changes', trustFor: 1 },
        coalesceReads: 'request',
        idempotency: {},
      },
      live: { settings: {} },
    } as unknown as PipelineParts;
    expect([requestStages(off).length, requestStages(on).length]).toEqual([7, 12]);
  });

  it('answers with the request id, and releases the drain after the answer', async () => {
    const headers: Record<string, string> = {};
    const exchange = exchangeOf('GET', headers, async () => (log.push('run'), { status: 200, body: [] }));
    await runStages(requestStages(parts(exchange.raw)), exchange);
    expect(headers['X-Request-Id']).toBe('r-1');
    expect(log).toEqual(['admit', 'run', 'end', 'release']);
  });

  it('keeps a failed write’s call for the filter, then tells live queries of its commit, then releases the drain', async () => {
    const exchange = exchangeOf('POST', {}, async () => {
      reached.add('Post');
      throw new Error('unreadable result');
    });
    await expect(runStages(requestStages(parts(exchange.raw)), exchange)).rejects.toThrow('unreadable result');
    expect(log).toEqual(['admit', 'committed Post, call kept: true', 'release']);
  });
});
