import { buildPaginationLinks } from './pagination-links.js';

const base = 'http://x/api/post';

describe('buildPaginationLinks', () => {
  it('keeps the other parameters and percent-encodes brackets', () => {
    expect(buildPaginationLinks(base, 'sort=title&page[offset]=2&page[limit]=2&filter[a]=b', { offset: 2, limit: 2 }, 5)).toEqual({
      first: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=0&page%5Blimit%5D=2`,
      last: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=4&page%5Blimit%5D=2`,
      prev: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=0&page%5Blimit%5D=2`,
      next: `${base}?sort=title&filter%5Ba%5D=b&page%5Boffset%5D=4&page%5Blimit%5D=2`,
    });
  });

  it('handles empty collections, offsets past the end and disabled pagination', () => {
    expect(buildPaginationLinks(base, '', { offset: 0, limit: 10 }, 0)).toMatchObject({ last: `${base}?page%5Boffset%5D=0&page%5Blimit%5D=10`, prev: null, next: null });
    expect(buildPaginationLinks(base, '', { offset: 50, limit: 10 }, 12).prev).toBe(`${base}?page%5Boffset%5D=10&page%5Blimit%5D=10`);
    expect(buildPaginationLinks(base, '', { offset: 0, limit: undefined }, 12)).toEqual({
      first: `${base}?page%5Boffset%5D=0`,
      last: `${base}?page%5Boffset%5D=0`,
      prev: null,
      next: null,
    });
  });
});
