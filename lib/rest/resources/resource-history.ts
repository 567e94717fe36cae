import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';
import { AS_OF_PARAMETER } from '../../shared/history.constants.js';
import type { RowVersion } from '../../shared/row-version.js';
import type { HistoryQuery } from '../query/history-query.js';
import { uniqueWhere } from '../resource-id.js';
import { modelDelegate } from './model-delegate.js';
import { type ResourceTarget, targetNotFound } from './resource-target.js';

/**
 * Whether the model records its history for this client: the policy client gives the delegates of
 * such models their own operations, `history` and `restoreVersion`.
 */
export function recordsHistory(registry: ModelRegistry, client: PrismaClientLike, model: ModelMeta): boolean {
  return typeof modelDelegate(registry, client, model).history === 'function';
}

/** 404 for the history routes of a type that does not record its history, as for a route it does not have. */
export function historyNotRecorded(type: string): CrudApiError {
  return new CrudApiError('not-found', `${type} resources do not record their history.`);
}

/**
 * The argument that makes a read answer the rows as they were at `asOf`, none without it; 400 on a
 * type that does not record its history, which has no past to read.
 */
export function pastRead(
  registry: ModelRegistry,
  client: PrismaClientLike,
  model: ModelMeta,
  asOf: Date | undefined,
): { asOf?: Date } {
  if (asOf === undefined) return {};
  if (!recordsHistory(registry, client, model))
    throw new CrudApiError(
      'as-of-unsupported',
      `"${AS_OF_PARAMETER}" needs a type that records its history: this one has no past to read.`,
      { source: { parameter: AS_OF_PARAMETER } },
    );
  return { [AS_OF_PARAMETER]: asOf };
}

/** The number of a version in a URL; one that is not a number names no version (404). */
export function versionNumber(text: string): number {
  const version = /^\d{1,15}$/.test(text) ? Number(text) : undefined;
  if (version === undefined) throw new CrudApiError('not-found', `No version ${quoteInput(text)}.`);
  return version;
}

/** A page of the target's versions, and whether more come after it (one more is read to tell). */
export async function readVersions(
  registry: ModelRegistry,
  client: PrismaClientLike,
  target: ResourceTarget,
  query: HistoryQuery,
): Promise<{ versions: RowVersion[]; hasNext: boolean }> {
  const { since, until, actor, order, page } = query;
  const args = {
    where: uniqueWhere(target.model, target.id),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
    ...(actor === undefined ? {} : { actor }),
    order,
    skip: page.offset,
    ...(page.limit === undefined ? {} : { take: page.limit + 1 }),
  };
  try {
    const versions = (await modelDelegate(registry, client, target.model).history!(args)) as RowVersion[];
    const hasNext = page.limit !== undefined && versions.length > page.limit;
    return { versions: hasNext ? versions.slice(0, page.limit) : versions, hasNext };
  } catch (error) {
    // The data layer's 404 names the row by its where; this one by the URL's id.
    throw error instanceof CrudApiError && error.code === 'not-found' ? targetNotFound(target) : error;
  }
}
