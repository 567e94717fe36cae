import { Decimal } from '@prisma/client/runtime/client';

import { CrudApiError } from '../errors/crud-api.error.js';
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
    if (error instanceof CrudApiError)
      return { code: error.code, message: error.message, source: error.options.source };
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
    [
      { q: '{}', meta: '{"values":{}}' },
      'Query parameter "meta" must be an object { "serialization": <superjson meta> }.',
    ],
    [
      { q: '{"a":"x"}', meta: '{"serialization":{"values":{"a":[["custom","Nope"]]}}}' },
      'Query parameter "meta" names the type "["custom","Nope"]", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
    [
      { q: '{"a":"x"}', meta: '{"serialization":{"values":{"__proto__.polluted":["Date"]}}}' },
      'Query parameter "meta" names the path "__proto__.polluted", which is not allowed.',
    ],
    [
      { q: '{"a":"x"}', meta: '{"serialization":{"values":{"a":["regexp"]}}}' },
      'Query parameter "meta" names the type "regexp", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
    [
      { q: '{"a":[1]}', meta: '{"serialization":{"values":{"a":["set"]}}}' },
      'Query parameter "meta" names the type "set", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
    [
      { q: '{"a":"NaN"}', meta: '{"serialization":{"values":{"a":["number"]}}}' },
      'Query parameter "meta" names the type "number", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
    [
      { q: '{"a":{}}', meta: '{"serialization":{"values":{"a":[["class","Foo"]]}}}' },
      'Query parameter "meta" names the type "["class","Foo"]", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
    [
      { q: '{"a":{"message":"x"}}', meta: '{"serialization":{"values":{"a":["Error"]}}}' },
      'Query parameter "meta" names the type "Error", which the RPC interface does not accept (only Date, bigint, undefined, Decimal and Bytes).',
    ],
    [
      { q: '{"a":"x"}', meta: '{"serialization":{"values":{"a.constructor":["Date"]}}}' },
      'Query parameter "meta" names the path "a.constructor", which is not allowed.',
    ],
    [
      { q: '{"a":"x"}', meta: '{"serialization":{"values":"Date"}}' },
      'Query parameter "meta" has a malformed "values" tree.',
    ],
    [
      { q: '{"a":"not base64!"}', meta: '{"serialization":{"values":{"a":[["custom","Bytes"]]}}}' },
      'Query parameter "meta" does not describe the arguments it was sent with.',
    ],
  ])('rejects %j', (query, message) => {
    expect(errorOf(() => get(query)).message).toBe(message);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('accepts the annotations the wire format needs: Date, bigint, undefined, Decimal and Bytes', () => {
    const args = {
      where: { at: new Date(5), n: 3n, price: new Decimal('1.5'), bytes: new Uint8Array([1]), gone: undefined },
    };
    const { json, meta } = rpcSuperJSON.serialize(args);
    expect(get({ q: JSON.stringify(json), meta: JSON.stringify({ serialization: meta }) })).toEqual(args);
  });

  it('checks size, depth and prototype keys before superjson copies the arguments', () => {
    const limits = { maxArgumentDepth: 3, maxArgumentNodes: 5 };
    const deep = JSON.stringify({ a: { b: { c: { d: 1 } } } });
    expect(
      errorOf(() =>
        parseRpcArgs(
          {
            method: 'GET',
            query: { q: deep, meta: '{"serialization":{"values":{"a.b.c.d":["bigint"]}}}' },
            body: undefined,
          },
          limits,
        ),
      ),
    ).toEqual({
      code: 'invalid-argument',
      message: 'Invalid argument at "/a/b/c": nested deeper than 3 levels (limit maxArgumentDepth).',
      source: { parameter: 'q' },
    });
    expect(errorOf(() => parseRpcArgs({ method: 'POST', query: {}, body: { data: [1, 2, 3, 4, 5] } }, limits))).toEqual(
      {
        code: 'invalid-argument',
        message: 'Invalid argument at "/data": more than 5 values in all (limit maxArgumentNodes).',
        source: { pointer: '/data' },
      },
    );
    expect(errorOf(() => post(JSON.parse('{"where":{"__proto__":{"id":9}}}'))).source).toEqual({
      pointer: '/where/__proto__',
    });
    const wideMeta = JSON.stringify({
      serialization: { values: Object.fromEntries([...Array(10).keys()].map((i) => [`k${i}`, ['Date']])) },
    });
    expect(
      errorOf(() => parseRpcArgs({ method: 'GET', query: { q: '{}', meta: wideMeta }, body: undefined }, limits))
        .message,
    ).toBe('Query parameter "meta" is too large or nested too deeply.');
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
