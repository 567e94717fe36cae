import xxhash from 'xxhash-wasm';

import {
  ENTITY_TAG_PART,
  entityTag,
  entityTagList,
  ifMatchHolds,
  noneMatch,
  prepareEntityTags,
} from './http-caching.js';

describe('entity tags', () => {
  beforeAll(prepareEntityTags);

  it('tag the exact bytes: equal bodies share a strong tag, any change gives another', () => {
    const tag = entityTag(Buffer.from('{"data":1}'));
    expect(tag).toMatch(/^"[0-9a-f]{16}"$/);
    expect(entityTag('{"data":1}')).toBe(tag);
    expect(entityTag(Buffer.from('{"data":1}'))).toBe(tag);
    expect(entityTag(Buffer.from('{"data":2}'))).not.toBe(tag);
    expect(entityTag(Buffer.from('{"data":1} '))).not.toBe(tag);
  });

  it('tag a body larger than one part, digested in parts, as its XXH64 over all its bytes', async () => {
    const { h64Raw } = await xxhash();
    const expected = (bytes: Buffer) => `"${h64Raw(bytes).toString(16).padStart(16, '0')}"`;
    for (const size of [ENTITY_TAG_PART - 1, ENTITY_TAG_PART, ENTITY_TAG_PART + 1, 3 * ENTITY_TAG_PART + 17]) {
      const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7919) % 251));
      expect({ size, tag: entityTag(bytes) }).toEqual({ size, tag: expected(bytes) });
      expect(entityTag(bytes.toString('latin1'))).toBe(entityTag(Buffer.from(bytes.toString('latin1'))));
    }
  });

  it('read If-None-Match lists, repeated fields and * as RFC 9110 writes them', () => {
    expect(entityTagList(undefined)).toEqual([]);
    expect(entityTagList(' "a" ,W/"b",, "c"')).toEqual(['"a"', 'W/"b"', '"c"']);
    expect(entityTagList(['"a"', '"b", "c"'])).toEqual(['"a"', '"b"', '"c"']);
    expect(entityTagList('*')).toEqual(['*']);
  });

  it('compare weakly for If-None-Match: a listed tag, its weak form or * fails the condition', () => {
    const tag = '"abc"';
    expect(noneMatch(undefined, tag)).toBe(true);
    expect(noneMatch('"abc"', tag)).toBe(false);
    expect(noneMatch('W/"abc"', tag)).toBe(false);
    expect(noneMatch('"x", "abc"', tag)).toBe(false);
    expect(noneMatch('*', tag)).toBe(false);
    expect(noneMatch('"abcd"', tag)).toBe(true);
    expect(noneMatch('abc', tag)).toBe(true);
  });
});

describe('If-Match', () => {
  it('holds without the field, for * and for a listed tag by strong comparison only', () => {
    const tag = '"abc"';
    expect(ifMatchHolds(undefined, tag)).toBe(true);
    expect(ifMatchHolds('"abc"', tag)).toBe(true);
    expect(ifMatchHolds('"x", "abc"', tag)).toBe(true);
    expect(ifMatchHolds('*', tag)).toBe(true);
    expect(ifMatchHolds('W/"abc"', tag)).toBe(false);
    expect(ifMatchHolds('"abcd"', tag)).toBe(false);
    expect(ifMatchHolds('', tag)).toBe(false);
  });
});
