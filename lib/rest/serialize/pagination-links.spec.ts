import { buildCursorLinks, buildPaginationLinks } from './pagination-links.js';

const base = 'http://x/api/post';

describe('buildPaginationLinks', () => {
  it('keeps the other parameters and percent-encodes brackets', () => {
    expect(
      buildPaginationLinks(
        base,
        'sort=title&page[offset]=2&page[limit]=2&filter[a]=b',
        { kind: 'offset', offset: 2, limit: 2 },
        5,
      ),
    ).toEqual({
      first: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=0&page%5Blimit%5D=2`,
      last: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=4&page%5Blimit%5D=2`,
      prev: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=0&page%5Blimit%5D=2`,
      next: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=4&page%5Blimit%5D=2`,
    });
  });

  it('handles empty collections, offsets past the end and disabled pagination', () => {
    expect(buildPaginationLinks(base, '', { kind: 'offset', offset: 0, limit: 10 }, 0)).toMatchObject({
      last: `${base}?page%5Boffset%5D=0&page%5Blimit%5D=10`,
      prev: null,
      next: null,
    });
    expect(buildPaginationLinks(base, '', { kind: 'offset', offset: 50, limit: 10 }, 12).prev).toBe(
      `${base}?page%5Boffset%5D=10&page%5Blimit%5D=10`,
    );
    expect(buildPaginationLinks(base, '', { kind: 'offset', offset: 0, limit: undefined }, 12)).toEqual({
      first: `${base}?page%5Boffset%5D=0`,
      last: `${base}?page%5Boffset%5D=0`,
      prev: null,
      next: null,
    });
  });

  it('without an exact total has no last link and lets hasNext decide next', () => {
    const page = { kind: 'offset', offset: 20, limit: 10 } as const;
    expect(buildPaginationLinks(base, 'sort=title', page, undefined, true)).toEqual({
      first: `${base}?sort=title&page%5Boffset%5D=0&page%5Blimit%5D=10`,
      prev: `${base}?sort=title&page%5Boffset%5D=10&page%5Blimit%5D=10`,
      next: `${base}?sort=title&page%5Boffset%5D=30&page%5Blimit%5D=10`,
    });
    expect(buildPaginationLinks(base, '', page, undefined, false).next).toBeNull();
  });
});

describe('buildCursorLinks', () => {
  it('keeps page[size] and the other parameters, replaces the cursor and leaves out missing directions', () => {
    const search = 'filter[a]=b&page[size]=5&page[after]=old';
    expect(buildCursorLinks(base, search, { before: 'c1', after: null })).toEqual({
      first: `${base}?filter%5Ba%5D=b&page%5Bsize%5D=5`,
      prev: `${base}?filter%5Ba%5D=b&page%5Bsize%5D=5&page%5Bbefore%5D=c1`,
      next: null,
    });
    expect(buildCursorLinks(base, 'page[before]=x', { before: null, after: 'c2' })).toEqual({
      first: base,
      prev: null,
      next: `${base}?page%5Bafter%5D=c2`,
    });
  });
});
