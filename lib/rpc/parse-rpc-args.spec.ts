import { Decimal } from '@prisma/client/runtime/client';
import { CrudApiError } from '../filters/crud-api.error.js';
import { parseRpcArgs } from './parse-rpc-args.js';
import { rpcSuperJSON } from './rpc-superjson.js';

function get(query: Record<string, unknown>) {
  return parseRpcArgs({ method: 'GET', query, body: undefined });
}

function post(body: unknown) {
  return parseRpcArgs({ method: 'POST', query: {}, body });
}

function errorOf(fn: () => unknown): { code: string; message: string; source: unknown } {
  try {
    fn();
  } catch (error) {
    if (error instanceof CrudApiError) return { code: error.code, message: error.message, source: error.options.source };
    throw error;
  }
  throw new Error('expected a CrudApiError');
}

describe('parseRpcArgs', () => {
  it('has no arguments without q or body', () => {
    expect(get({})).toBeUndefined();
    expect(parseRpcArgs({ method: 'DELETE', query: {}, body: undefined })).toBeUndefined();
    expect(post(undefined)).toBeUndefined();
  });

  it('reads plain JSON from q and from the body', () => {
    expect(get({ q: '{"where":{"id":1}}' })).toEqual({ where: { id: 1 } });
    expect(post({ data: { title: 'x' } })).toEqual({ data: { title: 'x' } });
  });

  it('restores types from meta, in the query and in the body', () => {
    const { json, meta } = rpcSuperJSON.serialize({ where: { at: new Date(5), price: new Decimal('1.5'), n: 3n } });
    const fromQuery = get({ q: JSON.stringify(json), meta: JSON.stringify({ serialization: meta }) });
    expect(fromQuery).toEqual({ where: { at: new Date(5), price: new Decimal('1.5'), n: 3n } });
    const fromBody = post({ ...(json as object), meta: { serialization: meta } });
    expect(fromBody).toEqual(fromQuery);
  });

  it('drops referential equalities, which could make the arguments cyclic', () => {
    const args = get({
      q: '{"where":{"a":{"x":1},"b":{"x":1}}}',
      meta: JSON.stringify({ serialization: { referentialEqualities: { '': ['where.a'] } } }),
    });
    expect(args).toEqual({ where: { a: { x: 1 }, b: { x: 1 } } });
  });

  it('names the malformed part', () => {
    expect(errorOf(() => get({ q: '{nope' }))).toEqual({
      code: 'malformed-json',
      message: 'Query parameter "q" is not valid JSON.',
      source: { parameter: 'q' },
    });
    expect(errorOf(() => get({ q: '{}', meta: 'nope' }))).toEqual({
      code: 'malformed-json',
      message: 'Query parameter "meta" is not valid JSON.',
      source: { parameter: 'meta' },
    });
  });

  it.each([
    [{ q: '[1]' }, 'Query parameter "q" must be a JSON object of query arguments.'],
    [{ q: 'null' }, 'Query parameter "q" must be a JSON object of query arguments.'],
    [{ q: ['{}', '{}'] }, 'Query parameter "q" must be given once, as a string.'],
    [{ q: '{}', meta: '{"values":{}}' }, 'Query parameter "meta" must be an object { "serialization": <superjson meta> }.'],
    [{ q: '{"a":"x"}', meta: '{"serialization":{"values":{"a":[["custom","Nope"]]}}}' }, 'Query parameter "meta" does not describe the arguments it was sent with.'],
    [{ q: '{"a":"x"}', meta: '{"serialization":{"values":{"__proto__.polluted":["Date"]}}}' }, 'Query parameter "meta" does not describe the arguments it was sent with.'],
    [{ q: '{"a":"not base64!"}', meta: '{"serialization":{"values":{"a":[["custom","Bytes"]]}}}' }, 'Query parameter "meta" does not describe the arguments it was sent with.'],
  ])('rejects %j', (query, message) => {
    expect(errorOf(() => get(query)).message).toBe(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects bodies that are not argument objects and body meta of the wrong shape', () => {
    expect(errorOf(() => post([1])).message).toBe('The request body must be a JSON object of query arguments.');
    expect(errorOf(() => post({ data: {}, meta: 'x' }))).toEqual({
      code: 'invalid-payload',
      message: 'The body field "meta" must be an object { "serialization": <superjson meta> }.',
      source: { pointer: '/meta' },
    });
  });
});
