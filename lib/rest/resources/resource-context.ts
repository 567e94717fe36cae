import type { ModelRegistry } from '../../metadata/model-registry.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import { policiesOf } from '../../policies/with-policies.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';
import type { ApiRequest } from '../../shared/api-request.js';
import { VisibleFields } from '../visible-fields.js';
import type { WriteScope } from '../write/relationship-data.js';

/**
 * What a resource operation (`RestService.createResource`...) runs with, whichever route called it:
 * a single-resource or relationship route, or an operation of an atomic request.
 */
export interface ResourceContext {
  /** The request being served (for an atomic operation, the atomic request). */
  request: ApiRequest;
  /** The Prisma client the operation runs on: the request's client, or the transaction it is part of. */
  client: PrismaClientLike;
  /** The fields the caller can name (its access policies hide the others) and the body limits. */
  scope: WriteScope;
  /**
   * Whether a failed write is explained by further queries: a taken client id (409), a missing
   * related resource (404 at its pointer), a missing target (404). Every route of the module does;
   * `false` answers the data layer's error as it is.
   */
  explainFailures: boolean;
  /**
   * Whether `client` is an interactive transaction's (an atomic request, a conditional or idempotent
   * write): writes then run in a savepoint, which a failed statement rolls back to, so that queries
   * can still explain it.
   */
  inTransaction?: boolean;
}

/** The fields a caller can name: the exposed ones less those its client's access policies hide. */
export function visibleFields(registry: ModelRegistry, client: PrismaClientLike): VisibleFields {
  return new VisibleFields(registry, policiesOf(client));
}

/** What parsing a request document needs, for a caller with this client. */
export function writeScope(
  registry: ModelRegistry,
  options: Pick<ResolvedCrudApiOptions, 'idDivider' | 'limits'>,
  client: PrismaClientLike,
): WriteScope {
  return {
    fields: visibleFields(registry, client),
    idDivider: options.idDivider,
    maxJsonDepth: options.limits.maxJsonDepth,
  };
}
