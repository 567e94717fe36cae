import { SuperJSON } from 'superjson';

import { PRISMA_OPERATIONS } from '../metadata/prisma-operations.js';
import { registerPrismaTypes } from '../rpc/prisma-superjson-types.js';
import { toRpcClientError } from './rpc-client.error.js';
import type { RpcHistoryOperationName, RpcOperationName, RpcSoftDeleteOperationName } from './rpc-client.types.js';
import { decodeRpcResult, encodeRpcCall, encodeTransaction } from './rpc-wire.js';

const serializer = registerPrismaTypes(new SuperJSON(), null);

describe('RPC client wire form', () => {
  it('puts GET/DELETE arguments in q, their superjson metadata in meta', () => {
    const at = new Date('2024-01-02T03:04:05.000Z');
    const request = encodeRpcCall(serializer, 'GET', '/post/findMany', { where: { createdAt: at }, take: 2 });
    const url = new URL(`http://x${request.path}`);
    expect(url.pathname).toBe('/post/findMany');
    expect(JSON.parse(url.searchParams.get('q')!)).toEqual({ where: { createdAt: at.toISOString() }, take: 2 });
    expect(JSON.parse(url.searchParams.get('meta')!)).toEqual({
      serialization: { v: 1, values: { 'where.createdAt': ['Date'] } },
    });
    expect(request.body).toBeUndefined();
    expect(encodeRpcCall(serializer, 'DELETE', '/post/deleteMany', { where: { id: 1 } }).path).toBe(
      '/post/deleteMany?q=%7B%22where%22%3A%7B%22id%22%3A1%7D%7D',
    );
    expect(encodeRpcCall(serializer, 'GET', '/post/count', undefined)).toEqual({ method: 'GET', path: '/post/count' });
  });

  it('adds the call’s own query parameters after the arguments', () => {
    const flag = { withDeleted: 'true' };
    expect(encodeRpcCall(serializer, 'GET', '/post/findMany', { where: { id: 1 } }, flag).path).toBe(
      '/post/findMany?q=%7B%22where%22%3A%7B%22id%22%3A1%7D%7D&withDeleted=true',
    );
    expect(encodeRpcCall(serializer, 'GET', '/post/count', undefined, flag)).toEqual({
      method: 'GET',
      path: '/post/count?withDeleted=true',
    });
  });

  it('sends other arguments as a JSON body with a top-level meta only when needed', () => {
    expect(JSON.parse(encodeRpcCall(serializer, 'POST', '/tag/create', { data: { name: 'a' } }).body!)).toEqual({
      data: { name: 'a' },
    });
    expect(JSON.parse(encodeRpcCall(serializer, 'PATCH', '/post/update', { data: { views: 5n } }).body!)).toEqual({
      data: { views: '5' },
      meta: { serialization: { v: 1, values: { 'data.views': ['bigint'] } } },
    });
  });

  it('sends a transaction as the data envelope with one meta for all steps', () => {
    const body = JSON.parse(
      encodeTransaction(serializer, [{ model: 'post', op: 'update', args: { data: { views: 1n } } }]).body!,
    );
    expect(body).toEqual({
      data: [{ model: 'post', op: 'update', args: { data: { views: '1' } } }],
      meta: { serialization: { v: 1, values: { '0.args.data.views': ['bigint'] } } },
    });
  });

  it('restores results with meta.serialization, Decimal and Bytes included', () => {
    const bytes = Uint8Array.from([1, 2, 255]);
    const { json, meta } = registerPrismaTypes(new SuperJSON(), null).serialize({ at: new Date(0), n: 3n, bytes });
    expect(decodeRpcResult(serializer, { data: json, meta: { serialization: meta } })).toEqual({
      at: new Date(0),
      n: 3n,
      bytes,
    });
    expect(decodeRpcResult(serializer, { data: [1] })).toEqual([1]);
  });

  it('reads the server’s error body, and any other error answer as its text', () => {
    const error = toRpcClientError(
      403,
      JSON.stringify({ error: { message: 'no', rejectedByPolicy: true, reason: 'ACCESS_POLICY_VIOLATION' } }),
    );
    expect(error).toMatchObject({
      status: 403,
      message: 'no',
      rejectedByPolicy: true,
      error: { reason: 'ACCESS_POLICY_VIOLATION' },
    });
    expect(toRpcClientError(502, '<html>Bad gateway</html>\n')).toMatchObject({
      status: 502,
      message: '<html>Bad gateway</html>',
      rejectedByPolicy: false,
    });
    expect(toRpcClientError(500, '')).toMatchObject({ message: 'HTTP 500' });
    expect(toRpcClientError(400, '{"error":"text"}')).toMatchObject({ message: '{"error":"text"}' });
  });

  it('offers exactly the operations the server serves, and those of soft-deleted models and history', () => {
    const offered: Record<RpcOperationName | RpcSoftDeleteOperationName | RpcHistoryOperationName, true> = {
      findMany: true,
      findUnique: true,
      findUniqueOrThrow: true,
      findFirst: true,
      findFirstOrThrow: true,
      count: true,
      aggregate: true,
      groupBy: true,
      create: true,
      createMany: true,
      createManyAndReturn: true,
      upsert: true,
      update: true,
      updateMany: true,
      updateManyAndReturn: true,
      delete: true,
      deleteMany: true,
      restore: true,
      hardDelete: true,
      history: true,
      restoreVersion: true,
    };
    const served = PRISMA_OPERATIONS.map((operation) => operation.name);
    expect(Object.keys(offered).sort()).toEqual(served.sort());
  });
});
