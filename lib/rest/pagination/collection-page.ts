import type { CountStrategy } from '../../options/crud-api-options.interface.js';
import type { CursorPage, OffsetPage, Page } from '../query/parse-page.js';
import { buildCursorLinks, buildPaginationLinks, type PaginationLinks } from '../serialize/pagination-links.js';
import type { CountChoice } from './count-strategy.js';
import type { CursorCodec } from './cursor-codec.js';
import { keysetWhere } from './keyset-where.js';
import { keysetOrderBy, reversedKeys, type SortKey } from './sort-keys.js';

type Row = Record<string, unknown>;
type Where = Record<string, unknown>;

/** A cursor page's keys, its cursor codec and the decoded position it starts from. */
export interface Keyset {
  keys: SortKey[];
  codec: CursorCodec;
  position?: unknown[];
}

/** The Prisma calls a page needs, on the per-request client. */
export interface PageSource {
  findMany(args: Row): Promise<Row[]>;
  count(args: { where?: Where }): Promise<number>;
  /** The table's estimated rows, only where an estimate is safe to show (see `estimationAllowed`). */
  estimate?: () => Promise<number | undefined>;
}

export interface PageRequest {
  where?: Where;
  orderBy: Row[];
  /** `include`/`select` of the rows. */
  selection: Row;
  count: CountStrategy;
  /** The collection's URL without query, and the query string, for links. */
  baseUrl: string;
  search: string;
}

export interface CollectionPage {
  rows: Row[];
  total?: number;
  /** How `total` was found (`exact` when the page itself proved it). */
  count: CountStrategy;
  links: PaginationLinks;
  /** Each row's cursor, on cursor pages. */
  cursors?: string[];
}

function and(where: Where | undefined, seek: Where | undefined): Where | undefined {
  return where && seek ? { AND: [where, seek] } : (where ?? seek);
}

/**
 * The total as the strategy asks, reading nothing when the page proved it (`proven`). An estimate
 * never claims fewer rows than the page has seen; without one, the count is exact.
 */
async function findTotal(
  source: PageSource,
  where: Where | undefined,
  strategy: CountStrategy,
  proven: number | undefined,
  seen: number,
) {
  if (strategy === 'none') return { count: strategy };
  if (proven !== undefined) return { total: proven, count: 'exact' as const };
  const estimate = strategy === 'estimated' ? await source.estimate?.() : undefined;
  if (estimate !== undefined) return { total: Math.max(estimate, seen), count: strategy };
  return { total: await source.count({ where }), count: 'exact' as const };
}

/**
 * One offset page. An exact count reads `limit` rows and counts only when the page cannot tell the
 * total (a short page ends the collection); the other strategies read one row more than `limit`
 * to know whether a next page exists without counting.
 */
export async function loadOffsetPage(
  source: PageSource,
  request: PageRequest,
  page: OffsetPage,
): Promise<CollectionPage> {
  const { offset, limit } = page;
  const probe = request.count !== 'exact' && limit !== undefined;
  const take = limit === undefined ? {} : { take: probe ? limit + 1 : limit };
  const rows = await source.findMany({
    where: request.where,
    orderBy: request.orderBy,
    ...request.selection,
    ...(offset ? { skip: offset } : {}),
    ...take,
  });
  const hasNext = limit !== undefined && rows.length > limit;
  if (hasNext) rows.pop();
  const ended = limit === undefined || rows.length < limit || (probe && !hasNext);
  const proven = ended && (rows.length > 0 || offset === 0) ? offset + rows.length : undefined;
  const found = await findTotal(source, request.where, request.count, proven, offset + rows.length + (hasNext ? 1 : 0));
  const exactTotal = found.count === 'exact' ? found.total : undefined;
  return { rows, ...found, links: buildPaginationLinks(request.baseUrl, request.search, page, exactTotal, hasNext) };
}

/**
 * One cursor page: the rows past the cursor in the sort's order (`page[before]` reads the order
 * reversed and turns the rows back), `size + 1` of them to know whether more lie that way. No
 * OFFSET: the cost does not grow with the page's depth.
 */
export async function loadCursorPage(
  source: PageSource,
  request: PageRequest,
  page: CursorPage,
  keyset: Keyset,
): Promise<CollectionPage> {
  const backwards = page.direction === 'before';
  const readKeys = backwards ? reversedKeys(keyset.keys) : keyset.keys;
  const seek = keyset.position ? keysetWhere(readKeys, keyset.position) : undefined;
  const rows = await source.findMany({
    where: and(request.where, seek),
    orderBy: backwards ? keysetOrderBy(readKeys) : request.orderBy,
    ...request.selection,
    ...(page.size === undefined ? {} : { take: page.size + 1 }),
  });
  const more = page.size !== undefined && rows.length > page.size;
  if (more) rows.pop();
  if (backwards) rows.reverse();
  const cursors = rows.map((row) => keyset.codec.encode(row));
  const proven = !keyset.position && !more ? rows.length : undefined;
  const found = await findTotal(source, request.where, request.count, proven, rows.length);
  // Past a cursor there is at least the cursor's row on the other side; a first page has nothing before it.
  const rowsBefore = backwards ? more : keyset.position !== undefined;
  const rowsAfter = backwards || more;
  const extent = {
    before: rowsBefore && cursors.length ? cursors[0]! : null,
    after: rowsAfter && cursors.length ? cursors.at(-1)! : null,
  };
  return { rows, ...found, cursors, links: buildCursorLinks(request.baseUrl, request.search, extent) };
}

/** One page of the request's kind of pagination. */
export function loadCollectionPage(
  source: PageSource,
  request: PageRequest,
  query: { page: Page; keyset?: Keyset },
): Promise<CollectionPage> {
  return query.page.kind === 'cursor'
    ? loadCursorPage(source, request, query.page, query.keyset!)
    : loadOffsetPage(source, request, query.page);
}

/**
 * `meta` of a collection: `total` when counted or estimated, and `count` naming the strategy
 * unless the total is the exact count that was asked for (the specification's `meta.total`).
 */
export function collectionMeta(page: CollectionPage, choice: CountChoice): Record<string, unknown> {
  const plain = page.count === 'exact' && choice.strategy === 'exact';
  return { ...(page.total === undefined ? {} : { total: page.total }), ...(plain ? {} : { count: page.count }) };
}

/** `Vary: Prefer` (the page depends on it), and `Preference-Applied` when the preferred strategy was used. */
export function collectionHeaders(page: CollectionPage, choice: CountChoice): Record<string, string> {
  return {
    Vary: 'Prefer',
    ...(choice.preferred && page.count === choice.strategy ? { 'Preference-Applied': `count=${page.count}` } : {}),
  };
}
