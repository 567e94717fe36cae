import type { CrudApiOptions } from '../lib/index.js';
import { postCreateSchema, preparePostCreate } from './post-create-rules.js';

/** One benchmarked request, sent identically to our module and to its hand-written baseline. */
export interface Scenario {
  id: string;
  title: string;
  method: 'GET' | 'POST' | 'PATCH';
  /** Path and query, percent-encoded as a client sends them. */
  path: string;
  body?: string;
  contentType?: string;
  /** Further request headers (`Prefer`). */
  headers?: Record<string, string>;
  /** The status a correct answer has; any other counts as an error. */
  status: number;
  /** Writes change the data: responses are compared by shape, and they run after the reads. */
  write: boolean;
  /** Options our module gets in this scenario only (what it measures the cost of); the others run without them. */
  oursOptions?: Pick<CrudApiOptions, 'rules' | 'live' | 'caching' | 'coalesceReads'>;
  /** What the scenario's two sides are (see `COMPARISONS`); `hand-written` unless given. */
  comparison?: ComparisonId;
}

export type ComparisonId = 'hand-written' | 'conditional';

/** What a scenario compares: its two sides, as the results and the report name them. */
export interface Comparison {
  /** What each side serves and is sent, written into the results. */
  sides: { ours: string; baseline: string };
  /** Column names of the two sides, and of the pair (`ours / base`). */
  columns: { ours: string; baseline: string; pair: string };
  /** The charts' names: title, the two sides on the axes, the sentence describing the chart. */
  chart: { title: string; ours: string; baseline: string; description: string };
}

export const COMPARISONS: Readonly<Record<ComparisonId, Comparison>> = {
  'hand-written': {
    sides: { ours: 'our module', baseline: "the scenario's hand-written Nest controller, sent the same request" },
    columns: { ours: 'ours', baseline: 'baseline', pair: 'ours / base' },
    chart: {
      title: 'Ours / hand-written controller',
      ours: 'ours',
      baseline: 'hand-written',
      description: 'of our module over a hand-written Nest controller',
    },
  },
  conditional: {
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
};

export const comparisonOf = (scenario: { comparison?: ComparisonId }): ComparisonId =>
  scenario.comparison ?? 'hand-written';

const JSON_API = 'application/vnd.api+json';
const POST_ID = 4242;
const UPDATED_POST_ID = 4243;
const USER_ID = 42;

const rpcQuery = (args: unknown): string => encodeURIComponent(JSON.stringify(args));

/** The reads of issue 7. */
const READS: readonly Scenario[] = [
  {
    id: 'rest-fetch',
    title: 'REST GET /post/:id',
    method: 'GET',
    path: `/api/rest/post/${POST_ID}`,
    status: 200,
    write: false,
  },
  {
    id: 'rest-list',
    title: 'REST list page[limit]=20',
    method: 'GET',
    path: '/api/rest/post?page%5Blimit%5D=20',
    status: 200,
    write: false,
  },
  {
    id: 'rest-list-soft-deleted',
    title: 'REST list page[limit]=20, soft-deleted model',
    method: 'GET',
    path: '/api/rest/post?page%5Blimit%5D=20',
    status: 200,
    write: false,
    oursOptions: { rules: { Post: { softDelete: { field: 'deletedAt' } } } },
  },
  {
    id: 'rest-include',
    title: 'REST list include=author,comments',
    method: 'GET',
    path: '/api/rest/post?include=author%2Ccomments&page%5Blimit%5D=20',
    status: 200,
    write: false,
  },
  {
    id: 'rest-filter-sort',
    title: 'REST list 2 filters + 2-field sort',
    method: 'GET',
    path: '/api/rest/post?filter%5Bpublished%5D=true&filter%5BauthorId%24lte%5D=500&sort=-rating%2Cid&page%5Blimit%5D=20',
    status: 200,
    write: false,
  },
  {
    id: 'rest-related',
    title: 'REST related /user/:id/posts',
    method: 'GET',
    path: `/api/rest/user/${USER_ID}/posts`,
    status: 200,
    write: false,
  },
  {
    id: 'rpc-find-unique',
    title: 'RPC post.findUnique',
    method: 'GET',
    path: `/api/rpc/post/findUnique?q=${rpcQuery({ where: { id: POST_ID } })}`,
    status: 200,
    write: false,
  },
  {
    id: 'rpc-find-many',
    title: 'RPC post.findMany where/include/orderBy/take',
    method: 'GET',
    path: `/api/rpc/post/findMany?q=${rpcQuery({
      where: { published: true, authorId: { lte: 500 } },
      include: { author: true, tags: true },
      orderBy: [{ rating: 'desc' }, { id: 'asc' }],
      take: 20,
    })}`,
    status: 200,
    write: false,
  },
  {
    id: 'rpc-aggregate',
    title: 'RPC post.aggregate',
    method: 'GET',
    path: `/api/rpc/post/aggregate?q=${rpcQuery({
      where: { published: true },
      _count: { _all: true },
      _avg: { rating: true },
      _max: { createdAt: true },
    })}`,
    status: 200,
    write: false,
  },
  {
    id: 'rpc-group-by',
    title: 'RPC post.groupBy',
    method: 'GET',
    path: `/api/rpc/post/groupBy?q=${rpcQuery({
      by: ['status'],
      _count: { _all: true },
      _avg: { rating: true },
      orderBy: { status: 'asc' },
    })}`,
    status: 200,
    write: false,
  },
];

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
  const read = READS.find((scenario) => scenario.id === id)!;
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

/**
 * Every scenario, reads first so that writes never change what a read measures. The conditional
 * GETs take a REST read and an RPC read with large bodies, where skipping the body should show.
 */
export const SCENARIOS: readonly Scenario[] = [
  ...READS,
  conditionalGet('rest-include'),
  conditionalGet('rpc-find-many'),
  conditionalGet('rest-include', true),
  conditionalGet('rpc-find-many', true),
  ...WRITES,
];

/** The scenario whose latency the scaling table follows. */
export const SCALING_SCENARIO_ID = 'rest-list';

export function selectScenarios(filter: string): Scenario[] {
  const selected = SCENARIOS.filter((scenario) => scenario.id.includes(filter));
  if (selected.length === 0) {
    throw new Error(`--scenario "${filter}" matches none of: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  }
  return selected;
}
