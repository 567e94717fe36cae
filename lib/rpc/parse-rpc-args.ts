import type { SuperJSON } from 'superjson';

import { CrudApiError } from '../errors/crud-api.error.js';
import type { ErrorCode } from '../errors/error-codes.js';
import { DEFAULT_LIMITS } from '../options/option-table.js';
import { argsError, type ArgsOrigin } from './args/args.error.js';
import { type ArgumentLimits, assertArgumentLimits } from './args/argument-limits.js';
import { readsArgsFromQuery } from './rpc-operations.js';
import { rpcSuperJSON } from './rpc-superjson.js';
import { serializationMetaProblem } from './serialization-meta.js';

/** The parts of an HTTP request that carry RPC arguments. */
export interface RpcArgsSource {
  method: string;
  query: Record<string, unknown>;
  body: unknown;
}

export type RpcArgs = Record<string, unknown>;

/** Which part of the request a problem is in, for messages and error sources. */
interface Part {
  label: string;
  origin: ArgsOrigin;
  code: ErrorCode;
  source: { parameter: string } | { pointer: string };
}

const Q: Part = {
  origin: 'query',
  label: 'Query parameter "q"',
  code: 'invalid-query-parameter',
  source: { parameter: 'q' },
};
const META: Part = {
  origin: 'query',
  label: 'Query parameter "meta"',
  code: 'invalid-query-parameter',
  source: { parameter: 'meta' },
};
const BODY: Part = { origin: 'body', label: 'The request body', code: 'invalid-payload', source: { pointer: '' } };
const BODY_META: Part = {
  origin: 'body',
  label: 'The body field "meta"',
  code: 'invalid-payload',
  source: { pointer: '/meta' },
};

function fail(part: Part, problem: string, code: ErrorCode = part.code): never {
  throw new CrudApiError(code, `${part.label} ${problem}`, { source: part.source });
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function queryString(query: Record<string, unknown>, name: string, part: Part): string | undefined {
  const value = query[name];
  if (value === undefined || typeof value === 'string') return value;
  return fail(part, 'must be given once, as a string.');
}

function parseJson(text: string, part: Part): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fail(part, 'is not valid JSON.', 'malformed-json');
  }
}

/** superjson's meta from `{ serialization: <meta> }`, its size bounded; checked against the arguments by `restore`. */
function serializationMeta(wrapper: unknown, part: Part, limits: ArgumentLimits): Record<string, unknown> | undefined {
  if (wrapper === undefined) return undefined;
  if (!isPlainObject(wrapper) || !isPlainObject(wrapper.serialization) || Object.keys(wrapper).length !== 1) {
    return fail(part, 'must be an object { "serialization": <superjson meta> }.');
  }
  assertArgumentLimits(wrapper.serialization, limits, () => fail(part, 'is too large or nested too deeply.'));
  return wrapper.serialization;
}

/** Size, depth and prototype keys, checked on the plain JSON before superjson copies it recursively. */
function checkLimits(json: unknown, part: Part, limits: ArgumentLimits): unknown {
  assertArgumentLimits(json, limits, (path, problem) => {
    throw argsError(part.origin, path, problem);
  });
  return json;
}

function restore(
  json: unknown,
  meta: ReturnType<typeof serializationMeta>,
  argsPart: Part,
  metaPart: Part,
  serializer: SuperJSON,
): RpcArgs {
  if (!isPlainObject(json)) return fail(argsPart, 'must be a JSON object of query arguments.');
  if (!meta) return json;
  const problem = serializationMetaProblem(meta, json);
  if (problem) fail(metaPart, `${problem}.`);
  try {
    // Only the types are applied: `referentialEqualities` could make the arguments cyclic, and
    // identity means nothing to Prisma since superjson's `json` part already holds every value.
    const { values, v } = meta;
    return serializer.deserialize({ json, meta: { values, v } } as Parameters<SuperJSON['deserialize']>[0]);
  } catch {
    return fail(metaPart, 'does not describe the arguments it was sent with.');
  }
}

/**
 * The Prisma arguments of an RPC request: from `q` (and `meta`) for GET and DELETE, from the JSON
 * body (with its top-level `meta`) otherwise. `undefined` when the request carries none.
 */
export function parseRpcArgs(
  source: RpcArgsSource,
  limits: ArgumentLimits = DEFAULT_LIMITS,
  serializer: SuperJSON = rpcSuperJSON,
): RpcArgs | undefined {
  if (readsArgsFromQuery(source.method)) {
    const q = queryString(source.query, 'q', Q);
    const metaText = queryString(source.query, 'meta', META);
    if (q === undefined) return undefined;
    const meta = metaText === undefined ? undefined : serializationMeta(parseJson(metaText, META), META, limits);
    return restore(checkLimits(parseJson(q, Q), Q, limits), meta, Q, META, serializer);
  }
  if (source.body === undefined) return undefined;
  if (!isPlainObject(source.body)) return fail(BODY, 'must be a JSON object of query arguments.');
  checkLimits(source.body, BODY, limits);
  const { meta, ...json } = source.body;
  return restore(json, serializationMeta(meta, BODY_META, limits), BODY, BODY_META, serializer);
}
