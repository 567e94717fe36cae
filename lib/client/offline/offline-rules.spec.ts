import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { seededRandom } from '../../../test/support/seeded-random.js';
import { RpcClientError } from '../rpc-client.error.js';
import { createdIds, leafKey, leavesIn, placeholderOf, replaceLeaves } from './placeholders.js';
import { replayOutcome } from './replay-outcome.js';
import { hasKey, sameValue } from './row-key.js';

const error = (status: number, errorCode?: string) =>
  new RpcClientError(status, { message: 'x', ...(errorCode ? { errorCode } : {}) });

describe('what a queued write’s attempt leads to', () => {
  it.each([
    [error(412, 'precondition-failed'), 'conflict'],
    [error(409, 'idempotency-key-in-use'), 'retry'],
    [error(409, 'conflict'), 'refused'],
    [error(401), 'retry'],
    [error(429, 'too-many-requests'), 'retry'],
    [error(503), 'retry'],
    [error(500), 'refused'],
    [error(400, 'invalid-argument'), 'refused'],
    [error(403, 'rejected-by-policy'), 'refused'],
    [error(404, 'not-found'), 'refused'],
    [error(422), 'refused'],
    [new TypeError('fetch failed'), 'retry'],
  ])('%s → %s', (failure, outcome) => {
    expect(replayOutcome(failure)).toBe(outcome);
  });
});

describe('placeholder ids of rows created offline', () => {
  it('gives the id fields the server sets a placeholder no column value of their type can be', () => {
    const post = createdIds(modelMeta.models.Post, { title: 't' }, 3);
    expect(post).toEqual({ id: placeholderOf('Int', 3) });
    expect(post.id as number).toBeLessThan(-(2 ** 31));
    expect(createdIds(modelMeta.models.Comment, { body: 'b' }, 4)).toEqual({ id: '~offline-4' });
    // Given in the data, or without a default: the data's own.
    expect(createdIds(modelMeta.models.Post, { id: 7 }, 5)).toEqual({});
    expect(createdIds(modelMeta.models.Like, { userId: 1, postId: 2 }, 6)).toEqual({});
    expect(createdIds(undefined, {}, 7)).toEqual({});
  });

  it('replaces exactly the placeholders among any JSON leaves (seeded)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const random = seededRandom(seed);
      const placeholders = [placeholderOf('Int', seed), placeholderOf('String', seed), placeholderOf('BigInt', seed)];
      const known = new Map(placeholders.map((value, index) => [leafKey(value), `real-${index}`]));
      const leaf = (): unknown =>
        random.next() < 0.3
          ? JSON.parse(leafKey(random.pick(placeholders)))
          : random.pick([1, -1, 0, 'text', true, null, -(2 ** 31), `~offline-${seed + 1}`]);
      const value = (depth: number): unknown =>
        depth > 2 || random.next() < 0.4
          ? leaf()
          : random.next() < 0.5
            ? Array.from({ length: random.int(3) }, () => value(depth + 1))
            : Object.fromEntries(Array.from({ length: random.int(3) }, (_, i) => [`k${i}`, value(depth + 1)]));
      const json = value(0);
      const replaced = replaceLeaves(json, known);
      const leaves = (v: unknown): unknown[] =>
        typeof v === 'object' && v !== null ? Object.values(v).flatMap(leaves) : [v];
      const before = leaves(json);
      expect(leaves(replaced)).toEqual(before.map((each) => known.get(leafKey(each)) ?? each));
      expect(leavesIn(json, known)).toEqual(new Set(before.map(leafKey).filter((key) => known.has(key))));
    }
  });
});

describe('rows named by a unique where', () => {
  it('compares values as columns: Dates by time, BigInts and Decimals by text', () => {
    expect(sameValue(new Date(5), new Date(5))).toBe(true);
    expect(sameValue(new Date(5), new Date(6))).toBe(false);
    expect(sameValue(12n, 12n)).toBe(true);
    expect(sameValue(1, '1')).toBe(false);
    expect(sameValue(null, undefined)).toBe(false);
  });

  it('matches a row by its id or a compound key', () => {
    expect(hasKey({ id: 1, title: 't' }, { id: 1 })).toBe(true);
    expect(hasKey({ id: 1 }, { id: 2 })).toBe(false);
    const like = { userId: 1, postId: 2 };
    expect(hasKey(like, { userId_postId: { userId: 1, postId: 2 } })).toBe(true);
    expect(hasKey(like, { userId_postId: { userId: 1, postId: 3 } })).toBe(false);
  });
});
