// Hand-written superjson output of the rows the RPC read scenarios return: each model's fields are
// spelled out, and the ones superjson annotates (Decimal, BigInt, DateTime) are turned into
// strings with their `meta.values` entry written alongside, in the row's key order. It writes
// superjson's bytes exactly (the runner checks it before measuring) without superjson's generic walk.

import type { SuperJSONResult } from 'superjson';

type Row = Record<string, any>;
type Values = Record<string, unknown>;

const DATE = ['Date'];
const BIGINT = ['bigint'];
const DECIMAL = [['custom', 'Decimal']];

/** What `superjson.serialize` returns: `json`, and `meta` when something was annotated. */
export interface SuperJsonOutput {
  json: unknown;
  meta?: { values: Values; referentialEqualities?: Record<string, string[]>; v: 1 };
}

/**
 * The `views` of every post written, by value: superjson lists equal bigints as referential
 * equalities (the first path, then the others).
 */
type BigintPaths = Map<bigint, string[]>;

function post(row: Row, path: string, values: Values, bigints: BigintPaths): Row {
  values[`${path}price`] = DECIMAL;
  values[`${path}views`] = BIGINT;
  if (row.publishedAt) values[`${path}publishedAt`] = DATE;
  values[`${path}createdAt`] = DATE;
  values[`${path}updatedAt`] = DATE;
  if (row.deletedAt) values[`${path}deletedAt`] = DATE;
  const paths = bigints.get(row.views);
  if (paths) paths.push(`${path}views`);
  else bigints.set(row.views, [`${path}views`]);
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    status: row.status,
    published: row.published,
    rating: row.rating,
    price: row.price.toString(),
    views: row.views.toString(),
    metadata: row.metadata,
    publishedAt: row.publishedAt ? row.publishedAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    deletedAt: row.deletedAt ? row.deletedAt.toISOString() : null,
    authorId: row.authorId,
    // PostgreSQL's schema adds a scalar list.
    ...('keywords' in row ? { keywords: row.keywords } : {}),
  };
}

function user(row: Row, path: string, values: Values): Row {
  values[`${path}createdAt`] = DATE;
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    passwordHash: row.passwordHash,
    createdAt: row.createdAt.toISOString(),
  };
}

function output(json: unknown, values: Values, bigints: BigintPaths): SuperJsonOutput {
  let referentialEqualities: Record<string, string[]> | undefined;
  for (const [first, ...others] of bigints.values()) {
    if (others.length > 0) (referentialEqualities ??= {})[first!] = others;
  }
  return { json, meta: referentialEqualities ? { values, referentialEqualities, v: 1 } : { values, v: 1 } };
}

/** A post of `findUnique`, or null. */
export function postOutput(row: Row | null): SuperJsonOutput {
  if (!row) return { json: null };
  const values: Values = {};
  const bigints: BigintPaths = new Map();
  return output(post(row, '', values, bigints), values, bigints);
}

/** The posts of `findMany` with `include: { author: true, tags: true }`: tags have no annotated field. */
export function postsWithAuthorAndTagsOutput(rows: Row[]): SuperJsonOutput {
  if (rows.length === 0) return { json: [] };
  const values: Values = {};
  const bigints: BigintPaths = new Map();
  const json = rows.map((row, index) => {
    const written = post(row, `${index}.`, values, bigints);
    written.author = user(row.author, `${index}.author.`, values);
    written.tags = row.tags;
    return written;
  });
  return output(json, values, bigints);
}

/** The baseline's hand-written writer of each RPC read scenario that has one; the others call superjson's `serialize`. */
export const HAND_WRITTEN_OUTPUTS: Readonly<Record<string, (result: any) => SuperJsonOutput>> = {
  'rpc-find-unique': postOutput,
  'rpc-find-many': postsWithAuthorAndTagsOutput,
};

/** The RPC response body of superjson's output: `data`, and `meta.serialization` when there is one. */
export function rpcBody({ json, meta }: SuperJsonOutput | SuperJSONResult): unknown {
  return meta ? { data: json, meta: { serialization: meta } } : { data: json ?? null };
}
