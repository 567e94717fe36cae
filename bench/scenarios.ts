import { Redis } from 'ioredis';

import type { CrudApiOptions } from '../lib/index.js';
import { CONSISTENCY_TOKEN_HEADER } from '../lib/shared/consistency-token.js';
import { historyTimeBefore } from './dataset/history-span.js';
import { postCreateSchema, preparePostCreate } from './post-create-rules.js';
import type { BaselineKind } from './server/server-protocol.js';
import { draw, PAGE_LIMIT, pageOffsetAt, postIdAt, publishedAt, userIdAt } from './varied-requests.js';

/** One benchmarked request, sent identically to our module and to its hand-written baseline. */
export interface Scenario {
  id: string;
  title: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query, percent-encoded as a client sends them; of a varied read, its first request. */
  path: string;
  /**
   * A read whose requests vary: the path of the round's request `index` (0, 1, 2… across all
   * connections). Without it every request of the scenario is `path`.
   */
  vary?: (index: number) => string;
  body?: string;
  contentType?: string;
  /** Further request headers (`Prefer`). */
  headers?: Record<string, string>;
  /** The status a correct answer has; any other counts as an error. */
  status: number;
  /** Writes change the data: responses are compared by shape, and they run after the reads. */
  write: boolean;
  /** Options our module gets in this scenario only (what it measures the cost of); the others run without them. */
  oursOptions?: Pick<
    CrudApiOptions,
    'rules' | 'live' | 'caching' | 'coalesceReads' | 'history' | 'onChange' | 'rateLimits'
  >;
  /** Options the baseline gets when it is our module without `oursOptions`: what both sides share. */
  baselineOptions?: Scenario['oursOptions'];
  /** The request the baseline side is sent instead of `path`/`vary` (an asOf read's: the same read without asOf). */
  baselineRequest?: Partial<Pick<Scenario, 'path' | 'vary' | 'headers'>>;
  /** What the scenario's two sides are (see `COMPARISONS`); `hand-written` unless given. */
  comparison?: ComparisonId;
}

export type ComparisonId =
  'hand-written' | 'nest-team' | 'conditional' | 'history' | 'as-of' | 'rate-limits' | 'replicas' | 'replica-token';

/** The comparisons whose servers run on the bench's own primary and replicas. */
export const ON_REPLICAS: ReadonlySet<ComparisonId> = new Set(['replicas', 'replica-token']);

/** What a scenario compares: its two sides, as the results and the report name them. */
export interface Comparison {
  /**
   * What the baseline server runs: a hand-written controller, or our module with the scenario's
   * `oursOptions` (`ours`) or without them (`ours-without-options`, with the scenario's
   * `baselineOptions` if it has any: what `oursOptions` cost).
   */
  baselineServes: 'controller' | 'ours' | 'ours-without-options';
  /** What each side serves and is sent, written into the results. */
  sides: { ours: string; baseline: string };
  /** Column names of the two sides, and of the pair (`ours / base`). */
  columns: { ours: string; baseline: string; pair: string };
  /** The charts' names: title, the two sides on the axes, the sentence describing the chart. */
  chart: { title: string; ours: string; baseline: string; description: string };
}

export const COMPARISONS: Readonly<Record<ComparisonId, Comparison>> = {
  'hand-written': {
    baselineServes: 'controller',
    sides: {
      ours: 'our module',
      baseline: "the scenario's fastest careful hand-written Nest controller (no validation), sent the same requests",
    },
    columns: { ours: 'ours', baseline: 'baseline', pair: 'ours / base' },
    chart: {
      title: 'Ours / fastest careful controller',
      ours: 'ours',
      baseline: 'careful',
      description: 'of our module over the fastest careful hand-written Nest controller',
    },
  },
  'nest-team': {
    baselineServes: 'controller',
    sides: {
      ours: 'our module',
      baseline:
        "the scenario's controller as a Nest team writes it (DTO classes under a global ValidationPipe, ParseIntPipe, an exception filter mapping Prisma errors), sent the same requests",
    },
    columns: { ours: 'ours', baseline: 'nest', pair: 'ours / nest' },
    chart: {
      title: 'Ours / Nest-team controller',
      ours: 'ours',
      baseline: 'Nest team',
      description: 'of our module over a controller as a Nest team writes it',
    },
  },
  conditional: {
    baselineServes: 'ours',
    sides: {
      ours: 'our module, sent If-None-Match with the tag of its full answer: 304 with no body',
      baseline: 'our module, sent the same read without If-None-Match: 200 with the full body',
    },
    columns: { ours: '304', baseline: '200', pair: '304 / 200' },
    chart: {
      title: 'Conditional GET, our 304 / our full 200',
      ours: '304',
      baseline: 'full 200',
      description: "of our module's 304 to a conditional GET over its full answer to the same read",
    },
  },
  history: {
    baselineServes: 'ours-without-options',
    sides: {
      ours: "our module recording the model's history (rules.Post.history, history.model HistoryEntry)",
      baseline: 'our module without history, sent the same requests',
    },
    columns: { ours: 'history', baseline: 'none', pair: 'history / none' },
    chart: {
      title: 'History on / off',
      ours: 'history',
      baseline: 'none',
      description: 'of our module recording history over our module without it, on the same write',
    },
  },
  'rate-limits': {
    baselineServes: 'ours-without-options',
    sides: {
      ours: 'our module with a rate limit on every request (rateLimits, a limit never reached)',
      baseline: 'our module without rateLimits, sent the same requests',
    },
    columns: { ours: 'limited', baseline: 'none', pair: 'limited / none' },
    chart: {
      title: 'Rate limited / not',
      ours: 'limited',
      baseline: 'none',
      description: 'of our module counting each request against a rate limit over our module without limits',
    },
  },
  replicas: {
    baselineServes: 'ours-without-options',
    sides: {
      ours: 'our module with replicas (a primary and two streaming replicas), each read sent with a consistency token the replicas have replayed',
      baseline: 'our module without replicas, on the primary, sent the same requests',
    },
    columns: { ours: 'replicas', baseline: 'primary', pair: 'replicas / primary' },
    chart: {
      title: 'With replicas / without',
      ours: 'replicas',
      baseline: 'primary',
      description: 'of our module routing token reads to replicas over our module reading the primary',
    },
  },
  'replica-token': {
    baselineServes: 'ours',
    sides: {
      ours: 'our module with replicas, each read sent with a consistency token the replicas have replayed',
      baseline: 'our module with replicas, sent the same reads without a token',
    },
    columns: { ours: 'token', baseline: 'no token', pair: 'token / none' },
    chart: {
      title: 'Token read / read without a token, on replicas',
      ours: 'token',
      baseline: 'no token',
      description: 'of a read sent with a consistency token over the same read without one, both on replicas',
    },
  },
  'as-of': {
    baselineServes: 'ours',
    sides: {
      ours: 'our module, sent the read with asOf (history of 100,000 changes)',
      baseline: 'our module, sent the same read without asOf',
    },
    columns: { ours: 'asOf', baseline: 'plain', pair: 'asOf / plain' },
    chart: {
      title: 'Read asOf / plain read',
      ours: 'asOf',
      baseline: 'plain',
      description: "of our module's read as of a past time over the same read of the current rows",
    },
  },
};

/** What a scenario is compared with: its own comparison, else the baseline it runs against (the careful one unless given). */
export const comparisonOf = (
  scenario: { comparison?: ComparisonId },
  baseline: BaselineKind = 'careful',
): ComparisonId => scenario.comparison ?? (baseline === 'nest' ? 'nest-team' : 'hand-written');

const JSON_API = 'application/vnd.api+json';
const POST_ID = 4242;
const UPDATED_POST_ID = 4243;

const rpcQuery = (args: unknown): string => encodeURIComponent(JSON.stringify(args));
const listPage = (index: number) => `page%5Blimit%5D=${PAGE_LIMIT}&page%5Boffset%5D=${pageOffsetAt(index)}`;

/** A read whose requests vary with their index; `path` is its first request. */
function variedRead(read: Pick<Scenario, 'id' | 'title' | 'oursOptions'>, vary: (index: number) => string): Scenario {
  return { ...read, method: 'GET', path: vary(0), vary, status: 200, write: false };
}

/** The reads of issue 7, each request of a round different (issue 46): what a read costs, not a hot read. */
const READS: readonly Scenario[] = [
  variedRead({ id: 'rest-fetch', title: 'REST GET /post/:id' }, (n) => `/api/rest/post/${postIdAt(n)}`),
  variedRead({ id: 'rest-list', title: 'REST list page[limit]=20' }, (n) => `/api/rest/post?${listPage(n)}`),
  variedRead(
    {
      id: 'rest-list-soft-deleted',
      title: 'REST list page[limit]=20, soft-deleted model',
      oursOptions: { rules: { Post: { softDelete: { field: 'deletedAt' } } } },
    },
    (n) => `/api/rest/post?${listPage(n)}`,
  ),
  variedRead(
    { id: 'rest-include', title: 'REST list include=author,comments' },
    (n) => `/api/rest/post?include=author%2Ccomments&${listPage(n)}`,
  ),
  variedRead(
    { id: 'rest-filter-sort', title: 'REST list 2 filters + 2-field sort' },
    (n) =>
      `/api/rest/post?filter%5Bpublished%5D=${publishedAt(n)}&filter%5BauthorId%24lte%5D=${userIdAt(n)}&sort=-rating%2Cid&page%5Blimit%5D=${PAGE_LIMIT}`,
  ),
  variedRead(
    { id: 'rest-related', title: 'REST related /user/:id/posts' },
    (n) => `/api/rest/user/${userIdAt(n)}/posts`,
  ),
  variedRead(
    { id: 'rpc-find-unique', title: 'RPC post.findUnique' },
    (n) => `/api/rpc/post/findUnique?q=${rpcQuery({ where: { id: postIdAt(n) } })}`,
  ),
  variedRead(
    { id: 'rpc-find-many', title: 'RPC post.findMany where/include/orderBy/take' },
    (n) =>
      `/api/rpc/post/findMany?q=${rpcQuery({
        where: { published: publishedAt(n), authorId: { lte: userIdAt(n) } },
        include: { author: true, tags: true },
        orderBy: [{ rating: 'desc' }, { id: 'asc' }],
        take: PAGE_LIMIT,
      })}`,
  ),
  variedRead(
    { id: 'rpc-aggregate', title: 'RPC post.aggregate' },
    (n) =>
      `/api/rpc/post/aggregate?q=${rpcQuery({
        where: { published: publishedAt(n), authorId: { lte: userIdAt(n) } },
        _count: { _all: true },
        _avg: { rating: true },
        _max: { createdAt: true },
      })}`,
  ),
  variedRead(
    { id: 'rpc-group-by', title: 'RPC post.groupBy' },
    (n) =>
      `/api/rpc/post/groupBy?q=${rpcQuery({
        by: ['status'],
        where: { authorId: { lte: userIdAt(n) } },
        _count: { _all: true },
        _avg: { rating: true },
        orderBy: { status: 'asc' },
      })}`,
  ),
];

/**
 * One request repeated from every connection: what coalesced reads buy a read requested many times
 * at once (most of them answered by another's read), not what a read costs.
 */
const HOT_READ: Scenario = {
  id: 'rest-fetch-hot',
  title: 'REST GET /post/:id, hot: one request repeated (coalesced)',
  method: 'GET',
  path: `/api/rest/post/${POST_ID}`,
  status: 200,
  write: false,
};

/** The writes of issue 7: they change the data, so they run after every read. */
const WRITES: readonly Scenario[] = [
  {
    id: 'rest-create',
    title: 'REST POST /post',
    method: 'POST',
    path: '/api/rest/post',
    contentType: JSON_API,
    body: JSON.stringify({
      data: {
        type: 'post',
        attributes: { title: 'Benchmark post', content: 'Created under load.', rating: 3.5 },
        relationships: { author: { data: { type: 'user', id: 7 } } },
      },
    }),
    status: 201,
    write: true,
  },
  {
    id: 'rest-update',
    title: 'REST PATCH /post/:id',
    method: 'PATCH',
    path: `/api/rest/post/${UPDATED_POST_ID}`,
    contentType: JSON_API,
    body: JSON.stringify({
      data: { type: 'post', id: UPDATED_POST_ID, attributes: { title: 'Updated under load', rating: 4.5 } },
    }),
    status: 200,
    write: true,
  },
  {
    id: 'rpc-create',
    title: 'RPC post.create',
    method: 'POST',
    path: '/api/rpc/post/create',
    contentType: 'application/json',
    body: JSON.stringify({
      data: { title: 'Benchmark post', content: 'Created under load.', rating: 3.5, authorId: 7 },
    }),
    status: 201,
    write: true,
  },
  {
    id: 'rpc-create-rules',
    title: 'RPC post.create, hook + zod validation',
    method: 'POST',
    path: '/api/rpc/post/create',
    contentType: 'application/json',
    body: JSON.stringify({ data: { title: '  Benchmark post  ', rating: 3.5, authorId: 7 } }),
    status: 201,
    write: true,
    oursOptions: {
      rules: {
        Post: { beforeCreate: ({ data }) => preparePostCreate(data), validate: { create: postCreateSchema } },
      },
    },
  },
  {
    id: 'rpc-update',
    title: 'RPC post.update',
    method: 'PATCH',
    path: '/api/rpc/post/update',
    contentType: 'application/json',
    body: JSON.stringify({ where: { id: UPDATED_POST_ID }, data: { title: 'Updated under load', rating: 4.5 } }),
    status: 200,
    write: true,
  },
  {
    id: 'rpc-transaction',
    title: 'RPC $transaction/sequential (3 writes)',
    method: 'POST',
    path: '/api/rpc/$transaction/sequential',
    contentType: 'application/json',
    body: JSON.stringify([
      { model: 'Post', op: 'create', args: { data: { title: 'Transaction post', rating: 2.5, authorId: 7 } } },
      { model: 'Post', op: 'update', args: { where: { id: UPDATED_POST_ID }, data: { rating: 3.5 } } },
      {
        model: 'Comment',
        op: 'create',
        args: { data: { body: 'Written in a transaction', postId: POST_ID, authorId: 7 } },
      },
    ]),
    status: 200,
    write: true,
  },
];

/**
 * A read as a conditional GET (`<id>-304`): our module on both sides, the full answer against the
 * 304 to `If-None-Match` with its current tag, which the runner fetches before the rounds; each
 * request reads (`coalesceReads: false`), so that the pair shows what the 304 saves on one read.
 * With `fromChanges` (`<id>-304-changes`), both run with `caching.revalidate: 'changes'` (and
 * `live`, which it needs): the 304 comes from the tag known for the read, without reading.
 */
function conditionalGet(id: string, fromChanges = false): Scenario {
  // One request, whose tag the runner fetches first.
  const { vary: _, ...read } = READS.find((scenario) => scenario.id === id)!;
  if (!fromChanges) {
    const title = `${read.title}, 304 vs 200, one read each`;
    return { ...read, id: `${read.id}-304`, title, comparison: 'conditional', oursOptions: { coalesceReads: false } };
  }
  return {
    ...read,
    id: `${read.id}-304-changes`,
    title: `${read.title}, 304 from changes vs 200`,
    comparison: 'conditional',
    oursOptions: { live: {}, caching: { revalidate: 'changes' } },
  };
}

/** Post's history recorded in the sample's HistoryEntry model (docs/history.md). */
const HISTORY: Scenario['oursOptions'] = { history: { model: 'HistoryEntry' }, rules: { Post: { history: true } } };

/**
 * A write with the post's history recorded against the same write without (`<id>-history`). With
 * nothing else capturing changes, history also turns on the change capture (a transaction, the rows
 * an update changes read before it), so the SQL difference is that and the history's insert together.
 * `<id>-history-captured` gives both sides an `onChange` listener, which captures the changes
 * already: the difference is then the history's own.
 */
function withHistory(id: string, captured = false): Scenario {
  const write = WRITES.find((scenario) => scenario.id === id)!;
  if (!captured) {
    const title = `${write.title}, history vs none`;
    return { ...write, id: `${id}-history`, title, comparison: 'history', oursOptions: HISTORY };
  }
  const listener: Scenario['oursOptions'] = { onChange: () => undefined };
  return {
    ...write,
    id: `${id}-history-captured`,
    title: `${write.title}, history vs none, both with an onChange listener`,
    comparison: 'history',
    oursOptions: { ...listener, ...HISTORY },
    baselineOptions: listener,
  };
}

/**
 * A read counted against a rate limit it never reaches (`<id>-limited-<store>`) against the same
 * read without the option: what the stage and the store's round trip cost. The Redis client
 * connects on its first command, in the server that uses it.
 */
function withRateLimits(id: string, store: 'memory' | 'redis'): Scenario {
  const read = READS.find((scenario) => scenario.id === id)!;
  const redis = () => new Redis(process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379', { lazyConnect: true });
  return {
    ...read,
    id: `${id}-limited-${store}`,
    title: `${read.title}, rate limited (${store} store) vs not`,
    comparison: 'rate-limits',
    oursOptions: {
      rateLimits: {
        limits: [{ name: 'bench', limit: 1_000_000, window: 3600 }],
        store: store === 'memory' ? 'memory' : { redis: redis() },
      },
    },
  };
}

/**
 * A read sent with a consistency token every replica has replayed, served by a replica of the
 * module's `replicas` option (the runner starts a primary and two replicas and hands their URLs to
 * the servers, `BENCH_REPLICA_URLS`): against the same read without the option, on the primary
 * (`<id>-replicas`: what routing reads to replicas costs), and against the same read without a
 * token, on replicas too (`<id>-replica-token`: what the token check costs).
 */
function withReplicas(id: string): Scenario[] {
  const read = READS.find((scenario) => scenario.id === id)!;
  const tokenRead = { ...read, headers: { ...read.headers, [CONSISTENCY_TOKEN_HEADER]: '0/1' } };
  return [
    {
      ...tokenRead,
      id: `${id}-replicas`,
      title: `${read.title}, token read on a replica vs on the primary`,
      comparison: 'replicas',
    },
    {
      ...tokenRead,
      id: `${id}-replica-token`,
      title: `${read.title} on replicas, with a token vs without`,
      comparison: 'replica-token',
      baselineRequest: { headers: read.headers ?? {} },
    },
  ];
}

/**
 * A page of posts as of a time with `changes` recorded since (of the 100,000 the runner seeds for
 * these scenarios), against the same read of today's rows. The filter and the page vary; pages stay
 * among the first five, as an asOf read fetches skip + take current rows to merge the past ones in.
 */
function asOfRead(id: string, changes: number): Scenario {
  const read = (n: number) => ({
    where: { published: publishedAt(n), authorId: { lte: userIdAt(n) } },
    orderBy: [{ rating: 'desc' }, { id: 'asc' }],
    skip: PAGE_LIMIT * draw(n, 5, 5),
    take: PAGE_LIMIT,
  });
  const asOf = historyTimeBefore(changes).toISOString();
  const plain = (n: number) => `/api/rpc/post/findMany?q=${rpcQuery(read(n))}`;
  return {
    ...variedRead(
      { id, title: `RPC post.findMany take 20, asOf with ${changes} changes since`, oursOptions: HISTORY },
      (n) => `/api/rpc/post/findMany?q=${rpcQuery({ ...read(n), asOf })}`,
    ),
    comparison: 'as-of',
    baselineRequest: { path: plain(0), vary: plain },
  };
}

/**
 * The asOf reads: few changes since (a recent time), as many changed rows as SQLite can leave out of
 * its read (Prisma binds at most 999 values there), and a tenth of the history since (an older time).
 */
export const AS_OF_READS: readonly Scenario[] = [
  asOfRead('rpc-as-of-recent', 100),
  asOfRead('rpc-as-of-900', 900),
  asOfRead('rpc-as-of-older', 10_000),
];

/**
 * Every scenario, reads first so that writes never change what a read measures. The conditional
 * GETs take a REST read and an RPC read with large bodies, where skipping the body should show.
 */
export const SCENARIOS: readonly Scenario[] = [
  ...READS,
  HOT_READ,
  conditionalGet('rest-include'),
  conditionalGet('rpc-find-many'),
  conditionalGet('rest-include', true),
  conditionalGet('rpc-find-many', true),
  ...AS_OF_READS,
  ...WRITES,
  withHistory('rpc-create'),
  withHistory('rpc-update'),
  withHistory('rest-update'),
  withHistory('rpc-create', true),
  withHistory('rpc-update', true),
  withRateLimits('rest-fetch', 'memory'),
  withRateLimits('rpc-find-unique', 'memory'),
  withRateLimits('rest-fetch', 'redis'),
  ...withReplicas('rest-fetch'),
  ...withReplicas('rpc-find-unique'),
];

/** The request the baseline side is sent: the scenario's own, or its `baselineRequest`. */
export const baselineRequestOf = (scenario: Scenario): Scenario => ({ ...scenario, ...scenario.baselineRequest });

/** The scenario as sent for the round's request `index`. */
export const requestAt = (scenario: Scenario, index: number): Scenario =>
  scenario.vary ? { ...scenario, path: scenario.vary(index) } : scenario;

/** The scenario whose latency the scaling table follows. */
export const SCALING_SCENARIO_ID = 'rest-list';

export function selectScenarios(filter: string): Scenario[] {
  // Those on replicas run on servers of their own (`--db postgres --scenario replica`), never with others.
  const replicas = filter.includes('replica');
  const selected = SCENARIOS.filter(
    (scenario) => scenario.id.includes(filter) && ON_REPLICAS.has(comparisonOf(scenario)) === replicas,
  );
  if (selected.length === 0) {
    throw new Error(`--scenario "${filter}" matches none of: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  }
  return selected;
}
