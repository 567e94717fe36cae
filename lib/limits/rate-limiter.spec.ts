import { jest } from '@jest/globals';

import { MemoryRateLimitStore } from './memory-store.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { defaultCaller, RateLimiter } from './rate-limiter.js';
import type { ResolvedRateLimits } from './rate-limits.types.js';

const settings = (storeTimeout: number): ResolvedRateLimits => ({
  limits: [{ name: 'few', limit: 2, window: 60 }],
  caller: defaultCaller,
  storeTimeout,
  onStoreError: 'open',
  store: 'memory',
});
const request = { ip: '10.0.0.1' } as never;
const steps = [{ model: 'Post', operation: 'findUnique', relations: 0 }];

describe('RateLimiter', () => {
  afterEach(() => jest.useRealTimers());

  it('sets no timer for a store that answers in process', async () => {
    jest.useFakeTimers();
    const limiter = new RateLimiter(settings(1000), new MemoryRateLimitStore());
    const answer = limiter.take({}, request, steps);
    expect(jest.getTimerCount()).toBe(0);
    expect((await answer)?.headers).toEqual({ 'RateLimit-Policy': '"few";q=2;w=60', RateLimit: '"few";r=1;t=30' });
  });

  it('gives up on a store that does not answer within storeTimeout, failing open', async () => {
    jest.useFakeTimers();
    const hanging: RateLimitStore = { take: () => new Promise(() => undefined) };
    const answer = new RateLimiter(settings(50), hanging).take({}, request, steps);
    expect(jest.getTimerCount()).toBe(1);
    await jest.advanceTimersByTimeAsync(50);
    await expect(answer).resolves.toEqual({ headers: {} });
  });
});
