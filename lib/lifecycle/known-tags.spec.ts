import { jest } from '@jest/globals';

import { type ChangeClock, KnownTags } from './known-tags.js';

/** A clock whose changes the test makes: `change(model)` counts one. */
function testClock(): ChangeClock & { change(model: string): void } {
  const at = new Map<string, number>();
  let now = 0;
  return {
    get now() {
      return now;
    },
    changedSince: (models, since) => [...models].some((model) => (at.get(model) ?? 0) > since),
    change: (model) => at.set(model, ++now),
  };
}

const headers = (etag: string) => ({ ETag: etag, 'Cache-Control': 'private, no-cache', Vary: 'Authorization' });

describe('KnownTags', () => {
  afterEach(() => jest.useRealTimers());

  it('answers the headers of a 304 while the tag is listed and nothing read changed', () => {
    const clock = testClock();
    const known = new KnownTags(clock, 60_000);
    known.remember('k', headers('"a"'), new Set(['Post']), clock.now);
    expect(known.notModified('k', '"a"')).toEqual(headers('"a"'));
    expect(known.notModified('k', 'W/"x", "a"')).toEqual(headers('"a"'));
    expect(known.notModified('k', '"b"')).toBeUndefined();
    expect(known.notModified('other', '"a"')).toBeUndefined();
    clock.change('User');
    expect(known.notModified('k', '"a"')).toEqual(headers('"a"'));
    clock.change('Post');
    expect(known.notModified('k', '"a"')).toBeUndefined();
    expect(known.size).toBe(0);
  });

  it('does not remember an answer whose reads changed while it ran', () => {
    const clock = testClock();
    const known = new KnownTags(clock, 60_000);
    const since = clock.now;
    clock.change('Post');
    known.remember('k', headers('"a"'), new Set(['Post']), since);
    expect(known.notModified('k', '"a"')).toBeUndefined();
  });

  it('trusts a tag for trustFor milliseconds at most', () => {
    jest.useFakeTimers({ now: 1000 });
    const clock = testClock();
    const known = new KnownTags(clock, 500);
    known.remember('k', headers('"a"'), new Set(['Post']), clock.now);
    jest.setSystemTime(1499);
    expect(known.notModified('k', '"a"')).toBeDefined();
    jest.setSystemTime(1500);
    expect(known.notModified('k', '"a"')).toBeUndefined();
  });

  it('forgets the oldest answers beyond its bound', () => {
    const clock = testClock();
    const known = new KnownTags(clock, 60_000);
    for (let n = 0; n <= 10_000; n++) known.remember(`k${n}`, headers(`"${n}"`), new Set(['Post']), clock.now);
    expect(known.size).toBe(10_000);
    expect(known.notModified('k0', '"0"')).toBeUndefined();
    expect(known.notModified('k10000', '"10000"')).toBeDefined();
  });
});
