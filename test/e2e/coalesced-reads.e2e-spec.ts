import fc from 'fast-check';

import {
  applyWrite,
  type Caller,
  CALLERS,
  generatedWrites,
  headersOf,
  RELATION_HIDDEN_READS,
  usePolicyApp,
} from '../support/policy-writes.js';
import { rpcQuery } from '../support/rpc-client.js';
import { testProviders } from '../support/test-database.js';
import { sendTogether } from '../support/together.js';

const JSON_API = 'application/vnd.api+json';
const SEED = 2611;
const RUNS = 3;
/** Requests sent together: each over its own connection, written in one turn of the event loop. */
const TOGETHER = 8;

interface Read {
  caller: Caller;
  path: string;
  /** Headers besides the caller's. */
  headers?: Record<string, string>;
  /** The client's own address (any of 127.0.0.0/8 on Linux). */
  from?: string;
}

/** The policy app's reads, sent together (`sendTogether`): the answer of each, and the statements the batch ran. */
function togetherWith(app: ReturnType<typeof usePolicyApp>) {
  const send = sendTogether(app.base);
  return async (reads: Read[]) => {
    const sent = reads.map(({ caller, path, headers, from }) => ({
      path,
      from,
      headers: {
        Accept: path.startsWith('/api/rest') ? JSON_API : 'application/json',
        ...headersOf(caller),
        ...headers,
      },
    }));
    const answered = await send(sent, () => (app.t.db.queries.length = 0));
    const answers = answered.map(({ status, text }, index) => ({ ...reads[index]!, status, text }));
    return { answers, statements: app.t.db.queries.length };
  };
}

const MODES = ['request', 'context'] as const;
const eachMode = (providers: string[]) =>
  providers.flatMap((provider) => MODES.map((mode) => [provider, mode] as const));

describe.each(eachMode(testProviders()))('coalesced reads (%s, %s)', (provider, mode) => {
  const app = usePolicyApp(provider as Parameters<typeof usePolicyApp>[0], { coalesceReads: mode });
  const { request, rpcWrite, t } = app;
  const together = togetherWith(app);
  /** One read alone: its answer and the statements it ran. */
  const alone = async ({ caller, path }: Read) => {
    t.db.queries.length = 0;
    const { status, text } = await request('GET', path, headersOf(caller));
    return {
      answer: { caller, path, status, text },
      statements: t.db.queries.length,
    };
  };

  it('shares reads between identical GETs that arrive together, and answers each as it would alone', async () => {
    const postId = (await t.db.prisma.post.findFirst({ where: { published: true } }))!.id;
    const paths = [`/api/rest/post/${postId}?include=comments`, ...RELATION_HIDDEN_READS];
    for (const path of paths) {
      const single = await alone({ caller: 'alice', path });
      expect(single.answer.status).toBe(200);
      const { answers, statements } = await together(Array(TOGETHER).fill({ caller: 'alice', path }));
      expect(answers).toEqual(Array(TOGETHER).fill(single.answer));
      expect(statements).toBeGreaterThanOrEqual(single.statements);
      expect(statements).toBeLessThan(single.statements * TOGETHER);
    }
  });

  it("answers every caller's GETs sent together with others' as a read of theirs alone would", async () => {
    const rows = await app.rows();
    const reads = CALLERS.flatMap((caller) => RELATION_HIDDEN_READS.map((path) => ({ caller, path })));
    const batches = fc.array(fc.array(fc.constantFrom(...reads), { minLength: 2, maxLength: 12 }), {
      minLength: 1,
      maxLength: 3,
    });
    const check = async (batch: Read[]) => {
      const { answers } = await together(batch);
      const expected = [];
      for (const read of batch) expected.push((await alone(read)).answer);
      expect(answers).toEqual(expected);
    };
    const plans = fc.sample(fc.tuple(generatedWrites, batches), { seed: SEED, numRuns: RUNS });
    for (const [writes, planned] of plans) {
      for (const [index, write] of writes.entries()) {
        await applyWrite(write, rows, rpcWrite);
        await check(planned[index % planned.length]!);
      }
    }
  });

  it('shows every write acknowledged before a GET was sent, while identical GETs keep coming', async () => {
    const postId = (await t.db.prisma.post.findFirst({ where: { published: true } }))!.id;
    const path = `/api/rpc/post/findUnique?${new URLSearchParams(rpcQuery({ where: { id: postId }, select: { title: true } }))}`;
    const titleOf = async () => JSON.parse((await request('GET', path, headersOf('alice'))).text).data.title;
    let reading = true;
    const storm = Array.from({ length: 4 }, async () => {
      while (reading) await titleOf();
    });
    try {
      for (let version = 1; version <= 20; version++) {
        await rpcWrite('post/update', { where: { id: postId }, data: { title: `version ${version}` } });
        expect(await titleOf()).toBe(`version ${version}`);
      }
    } finally {
      reading = false;
      await Promise.all(storm);
    }
  });
});

/**
 * Which GETs are the same: under `'request'`, those that bring the same headers (but the
 * per-request ones) from the same address; under `'context'`, those with the same declared
 * dependencies, whoever sends them.
 */
describe.each(eachMode(testProviders()))('GETs that share a read (%s, %s)', (provider, mode) => {
  const app = usePolicyApp(provider as Parameters<typeof usePolicyApp>[0], { coalesceReads: mode });
  const together = togetherWith(app);
  const path = RELATION_HIDDEN_READS[1]!;

  it('shares a read between GETs that differ in a header no answer names only by context', async () => {
    const single = (await together([{ caller: 'alice', path }])).statements;
    const tenants = ['a', 'b', 'c'].flatMap((tenant) =>
      Array<Read>(4).fill({ caller: 'alice', path, headers: { 'x-tenant': tenant } }),
    );
    const { answers, statements } = await together(tenants);
    expect(new Set(answers.map(({ status, text }) => `${status} ${text}`)).size).toBe(1);
    // The first GET of a key reads at once, those that came with it share a second read.
    if (mode === 'request') expect(statements).toBeGreaterThanOrEqual(3 * single);
    else expect(statements).toBeLessThanOrEqual(2 * single);
  });

  it('shares a read between addresses only by context, and never across per-request ids', async () => {
    const single = (await together([{ caller: 'bob', path }])).statements;
    const addresses = ['127.0.0.1', '127.0.0.2', '127.0.0.3'].flatMap((from) =>
      Array.from({ length: 4 }, (_, index) => ({
        caller: 'bob' as const,
        path,
        from,
        headers: {
          'x-request-id': `${from}-${index}`,
          traceparent: `00-${'1'.repeat(31)}${index}-${'2'.repeat(16)}-01`,
        },
      })),
    );
    const { statements } = await together(addresses);
    if (mode === 'request') expect(statements).toBeGreaterThanOrEqual(3 * single);
    else expect(statements).toBeLessThanOrEqual(2 * single);
    expect(statements).toBeLessThan(12 * single);
  });
});

describe.each(testProviders())('reads not coalesced (%s)', (provider) => {
  const app = usePolicyApp(provider, { coalesceReads: false });
  const together = togetherWith(app);

  it('reads once per GET with coalesceReads: false', async () => {
    const path = RELATION_HIDDEN_READS[0]!;
    app.t.db.queries.length = 0;
    await app.request('GET', path, headersOf('bob'));
    const single = app.t.db.queries.length;
    const { statements } = await together(Array(TOGETHER).fill({ caller: 'bob', path }));
    expect(statements).toBe(single * TOGETHER);
  });
});
