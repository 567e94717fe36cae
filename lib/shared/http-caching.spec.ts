import { entityTag, entityTagList, ifMatchHolds, noneMatch, prepareEntityTags } from './http-caching.js';

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
