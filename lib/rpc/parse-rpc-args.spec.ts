import { Decimal } from '@prisma/client/runtime/client';
import fc from 'fast-check';

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

  it('checks referential equalities and drops them, which could make the arguments cyclic', () => {
    const q = '{"where":{"a":{"x":1},"b":{"x":1}}}';
    for (const referentialEqualities of [{ 'where.a': ['where.b'] }, [['where.a'], { 'where.a': ['where.b'] }]]) {
      const args = get({ q, meta: JSON.stringify({ serialization: { referentialEqualities, v: 1 } }) });
      expect(args).toEqual({ where: { a: { x: 1 }, b: { x: 1 } } });
    }
  });

  it.each([
    ['a values path the arguments lack', { values: { 'where.nope.deep': ['Date'] }, v: 1 }],
    ['a values path through a value', { values: { 'where.at.x': ['Date'] }, v: 1 }],
    ['a Date on a number', { values: { 'where.n': ['Date'] }, v: 1 }],
    ['an undefined on a present value', { values: { 'where.at': ['undefined'] }, v: 1 }],
    ['an array index out of range', { values: { 'where.list.5': ['Date'] }, v: 1 }],
    ['an array index not in canonical form', { values: { 'where.list.01': ['Date'] }, v: 1 }],
    ['the root annotated', { values: ['Date'], v: 1 }],
    ['a path annotated twice', { values: { 'where.at': ['Date'], where: { at: ['Date'] } }, v: 1 }],
    ['an annotation with children', { values: { 'where.at': ['Date', { x: ['Date'] }] }, v: 1 }],
    ['a malformed escape', { values: { 'where\\x.at': ['Date'] }, v: 1 }],
    ['an equality naming an unknown path', { referentialEqualities: { 'where.at': ['where.nope'] }, v: 1 }],
    ['an equality with an unknown representative', { referentialEqualities: { nope: ['where.at'] }, v: 1 }],
    ['an equality list that is not a list', { referentialEqualities: { 'where.at': 'where.n' }, v: 1 }],
    ['root equalities that are not a list', { referentialEqualities: ['where.at'], v: 1 }],
    ['an unknown meta member', { values: { 'where.at': ['Date'] }, v: 1, extra: true }],
    ['an unknown format version', { values: { 'where.at': ['Date'] }, v: 2 }],
  ])('refuses %s, with the meta as source', (_label, serialization) => {
    const json = { where: { at: '2020-01-01T00:00:00.000Z', n: 1, list: ['2020-01-01T00:00:00.000Z'] } };
    const fromQuery = errorOf(() => get({ q: JSON.stringify(json), meta: JSON.stringify({ serialization }) }));
    expect(fromQuery).toMatchObject({ code: 'invalid-query-parameter', source: { parameter: 'meta' } });
    const fromBody = errorOf(() => post({ ...json, meta: { serialization } }));
    expect(fromBody).toMatchObject({ code: 'invalid-payload', source: { pointer: '/meta' } });
  });

  it('refuses members beside "serialization" in the meta object', () => {
    expect(errorOf(() => get({ q: '{}', meta: '{"serialization":{},"x":1}' }))).toMatchObject({
      code: 'invalid-query-parameter',
      source: { parameter: 'meta' },
    });
  });

  it('reads the paths of a meta without format version the way superjson 1 wrote them', () => {
    const args = get({ q: '{"a\\\\b":{"c":"1"}}', meta: '{"serialization":{"values":{"a\\\\b.c":["bigint"]}}}' });
    expect(args).toEqual({ 'a\\b': { c: 1n } });
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

describe('parseRpcArgs with generated meta', () => {
  const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
  const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
  const key = fc.constantFrom('a', 'b', 'where', 'x.y', 'back\\slash', '0', '1', '');
  const leaf = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.integer(),
    fc.constant(null),
    fc.date({ min: new Date(0), max: new Date(2 ** 40), noInvalidDate: true }),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
    fc.integer().map((n) => new Decimal(n).div(7)),
    fc.uint8Array({ maxLength: 4 }),
    fc.constant(undefined),
  );
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
    object: fc.dictionary(key, tie('tree'), { maxKeys: 4 }),
    array: fc.array(tie('tree'), { maxLength: 3 }),
  }));
  const args = fc.dictionary(key, tree, { maxKeys: 4 });
  const escape = (segment: string) => segment.replaceAll('\\', '\\\\').replaceAll('.', '\\.');
  const valueAt = (json: unknown, path: readonly string[]): unknown =>
    path.reduce<unknown>(
      (at, segment) =>
        at !== null &&
        typeof at === 'object' &&
        Object.hasOwn(at, segment) &&
        (!Array.isArray(at) || /^(0|[1-9]\d*)$/.test(segment))
          ? (at as Record<string, unknown>)[segment]
          : Symbol.for('absent'),
      json,
    );
  const send = (json: unknown, serialization: unknown) =>
    get({ q: JSON.stringify(json), meta: JSON.stringify({ serialization }) });

  it('accepts the meta superjson writes for any arguments, and restores them', () => {
    fc.assert(
      fc.property(args, (value) => {
        const { json, meta } = rpcSuperJSON.serialize(value);
        const restored = meta ? send(json, meta) : get({ q: JSON.stringify(json) });
        expect(restored).toEqual(rpcSuperJSON.deserialize({ json, meta }));
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('refuses any path that does not name a value of its type, in values and in equalities', () => {
    fc.assert(
      fc.property(
        args,
        fc.array(key, { minLength: 1, maxLength: 4 }),
        fc.array(key, { minLength: 1, maxLength: 4 }),
        (value, path, other) => {
          const { json } = rpcSuperJSON.serialize(value);
          const roundTrip = JSON.parse(JSON.stringify(json)) as unknown;
          const named = (segments: string[]) => segments.map(escape).join('.');
          const isString = typeof valueAt(roundTrip, path) === 'string';
          const annotated = () => send(json, { values: { [named(path)]: ['bigint'] }, v: 1 });
          if (isString && /^-?\d+$/.test(valueAt(roundTrip, path) as string)) expect(annotated).not.toThrow();
          else if (!isString) expect(errorOf(annotated)).toMatchObject({ source: { parameter: 'meta' } });
          const exists = (segments: string[]) => valueAt(roundTrip, segments) !== Symbol.for('absent');
          const equal = () => send(json, { referentialEqualities: { [named(path)]: [named(other)] }, v: 1 });
          if (exists(path) && exists(other)) expect(equal).not.toThrow();
          else expect(errorOf(equal)).toMatchObject({ source: { parameter: 'meta' } });
        },
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
