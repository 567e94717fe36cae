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
  oursOptions?: Pick<CrudApiOptions, 'rules'>;
}

const JSON_API = 'application/vnd.api+json';
const POST_ID = 4242;
const UPDATED_POST_ID = 4243;
const USER_ID = 42;

const rpcQuery = (args: unknown): string => encodeURIComponent(JSON.stringify(args));

/** The scenarios of issue 7, reads first so that writes never change what a read measures. */
export const SCENARIOS: readonly Scenario[] = [
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

/** The scenario whose latency the scaling table follows. */
export const SCALING_SCENARIO_ID = 'rest-list';

export function selectScenarios(filter: string): Scenario[] {
  const selected = SCENARIOS.filter((scenario) => scenario.id.includes(filter));
  if (selected.length === 0) {
    throw new Error(`--scenario "${filter}" matches none of: ${SCENARIOS.map((s) => s.id).join(', ')}`);
  }
  return selected;
}
