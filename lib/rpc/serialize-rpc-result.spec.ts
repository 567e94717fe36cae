import { Decimal } from '@prisma/client/runtime/client';

import { rpcSuperJSON } from './rpc-superjson.js';
import { serializeRpcResult } from './serialize-rpc-result.js';

describe('serializeRpcResult', () => {
  it('is plain JSON without meta when only simple types are involved', () => {
    expect(serializeRpcResult([{ id: 1, title: 'a', tags: ['x'] }])).toEqual({
      data: [{ id: 1, title: 'a', tags: ['x'] }],
    });
    expect(serializeRpcResult(null)).toEqual({ data: null });
  });

  it('writes the wire forms of the specification and the metadata to restore them', () => {
    const body = serializeRpcResult({
      at: new Date('2024-05-06T07:08:09.123Z'),
      price: new Decimal('12.345'),
      views: 9007199254740993n,
      avatar: new Uint8Array([0, 1, 254, 255]),
    });
    expect(body).toEqual({
      data: { at: '2024-05-06T07:08:09.123Z', price: '12.345', views: '9007199254740993', avatar: 'AAH+/w==' },
      meta: {
        serialization: {
          values: { at: ['Date'], price: [['custom', 'Decimal']], views: ['bigint'], avatar: [['custom', 'Bytes']] },
          v: 1,
        },
      },
    });
  });

  it('round-trips through superjson with the same registrations', () => {
    const value = { price: new Decimal('-0.000000001'), bytes: new Uint8Array([7, 8]), big: -5n, when: new Date(0) };
    const body = serializeRpcResult(value);
    const restored = rpcSuperJSON.deserialize<typeof value>({
      json: body.data as never,
      meta: body.meta!.serialization as never,
    });
    expect(restored.price).toBeInstanceOf(Decimal);
    expect(restored.price.toString()).toBe('-1e-9');
    expect(restored).toEqual(value);
  });
});
