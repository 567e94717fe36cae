import { createHmac } from 'node:crypto';

import { Decimal } from '@prisma/client/runtime/client';

import { rowKey } from '../history/stored-row.js';
import { retryDelay } from './outbox-worker.js';
import { outboxChange } from './outbox-writer.js';
import { signWebhook, verifyWebhookSignature } from './webhook-signature.js';

describe('webhook signature (Standard Webhooks)', () => {
  const secret = `whsec_${Buffer.from('key bytes').toString('base64')}`;
  const body = '{"type":"Post.update"}';
  const now = 1_700_000_000_000;
  const headers = signWebhook(secret, '42', body, now / 1000);

  it('signs id.timestamp.body with HMAC-SHA256 under the decoded whsec_ key', () => {
    const expected = createHmac('sha256', Buffer.from('key bytes'))
      .update(`42.${now / 1000}.${body}`)
      .digest('base64');
    expect(headers).toEqual({
      'webhook-id': '42',
      'webhook-timestamp': String(now / 1000),
      'webhook-signature': `v1,${expected}`,
    });
  });

  it('keys other secrets by their UTF-8 bytes', () => {
    const signed = signWebhook('plain', '1', body, 10);
    const expected = createHmac('sha256', 'plain').update(`1.10.${body}`).digest('base64');
    expect(signed['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('verifies a delivery, among several signatures, from Node headers or a Headers object', () => {
    expect(verifyWebhookSignature({ secret, headers, body, now })).toBe(true);
    expect(verifyWebhookSignature({ secret, headers: new Headers(headers), body: Buffer.from(body), now })).toBe(true);
    const several = { ...headers, 'webhook-signature': `v1,AAAA ${headers['webhook-signature']}` };
    expect(verifyWebhookSignature({ secret, headers: several, body, now })).toBe(true);
  });

  it.each([
    ['another secret', { secret: 'whsec_b3RoZXI=' }],
    ['another body', { body: `${body} ` }],
    ['an old timestamp', { now: now + 301_000 }],
    ['a timestamp from the future', { now: now - 301_000 }],
    ['no signature', { headers: { ...headers, 'webhook-signature': undefined } }],
    [
      'another scheme version',
      { headers: { ...headers, 'webhook-signature': headers['webhook-signature']!.replace('v1', 'v2') } },
    ],
  ])('refuses %s', (_case, change) => {
    expect(verifyWebhookSignature({ secret, headers, body, now, ...change })).toBe(false);
  });

  it('takes a wider tolerance', () => {
    expect(verifyWebhookSignature({ secret, headers, body, now: now + 301_000, tolerance: 600 })).toBe(true);
  });
});

describe('retryDelay', () => {
  it('doubles from the base, capped, with half of it random', () => {
    expect([1, 2, 3, 4].map((attempt) => retryDelay(attempt, 100, 1000, 1))).toEqual([100, 200, 400, 800]);
    expect(retryDelay(5, 100, 1000, 1)).toBe(1000);
    expect(retryDelay(60, 100, 1000, 0)).toBe(500);
    expect(retryDelay(3, 100, 1000, 0)).toBe(200);
  });
});

describe('outboxChange', () => {
  const row = {
    id: 1n,
    at: new Date('2026-01-02T03:04:05.678Z'),
    price: new Decimal('12345678901234567890.123456789'),
    avatar: new Uint8Array([0, 1, 2]),
    meta: { a: [1] },
  };

  it('carries JSON values (ISO dates, text for BigInt and Decimal, base64 bytes)', () => {
    const change = outboxChange({
      model: 'User',
      operation: 'update',
      id: { id: 1n },
      before: row,
      after: row,
      context: { user: 1 },
    });
    const plain = {
      id: '1',
      at: '2026-01-02T03:04:05.678Z',
      price: '12345678901234567890.123456789',
      avatar: 'AAEC',
      meta: { a: [1] },
    };
    expect(change).toEqual({ model: 'User', operation: 'update', id: { id: '1' }, before: plain, after: plain });
  });

  it('keys rows by their id as JSON, long ones by a hash', () => {
    expect(rowKey({ userId: 1, postId: 2 })).toBe('{"userId":1,"postId":2}');
    expect(rowKey({ id: 'x'.repeat(200) })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
