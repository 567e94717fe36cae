import { DEFAULT_DATASET } from './dataset/seed-dataset.js';

// What varies between the requests of a read scenario: ids, pages, filters and authors drawn from
// the seeded dataset. Each value is a pure function of the request's index in its round, so both
// sides of a scenario are sent the same sequence, and no two requests sent together are alike
// (which would let coalesced reads answer them with one read, and price a hot read, not a read).

/**
 * The value of request `index` in `[0, size)`; each `salt` starts its own sequence (one per
 * parameter of a request). The sequence steps by about 0.618 of `size`, coprime to it, so that it
 * scatters over the whole range and any `size` consecutive requests take `size` different values:
 * requests sent together differ, however the connections interleave.
 */
export function draw(index: number, salt: number, size: number): number {
  return (startOf(salt, size) + (index % size) * stepOf(size)) % size;
}

function stepOf(size: number): number {
  let step = Math.max(1, Math.floor(size * 0.618));
  while (gcd(step, size) !== 1) step++;
  return step;
}

/** murmur3's 32-bit finalizer of the salt: where a parameter's sequence starts. */
function startOf(salt: number, size: number): number {
  let h = Math.imul(salt ^ (salt >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) % size;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The page size of the list scenarios. */
export const PAGE_LIMIT = 20;
/** Lists are read among their first pages, as users page through a collection. */
const LISTED_PAGES = 50;

/** A seeded post's id (1 … posts). */
export const postIdAt = (index: number): number => 1 + draw(index, 1, DEFAULT_DATASET.posts);
/** A seeded user's id (1 … users): an author, or the bound of an author filter. */
export const userIdAt = (index: number): number => 1 + draw(index, 2, DEFAULT_DATASET.users);
/** The offset of one of the first pages. */
export const pageOffsetAt = (index: number): number => PAGE_LIMIT * draw(index, 3, LISTED_PAGES);
/** Published or not: both halves of a boolean filter. */
export const publishedAt = (index: number): boolean => draw(index, 4, 2) === 1;
