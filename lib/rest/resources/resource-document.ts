import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import { policiesOf } from '../../policies/with-policies.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';
import type { Fieldsets } from '../query/parse-fields.js';
import type { IncludeTree } from '../query/parse-include.js';
import { buildSelection, scalarSelection, type Selection } from '../serialize/build-selection.js';
import { CompoundDocument } from '../serialize/compound-document.js';

/** What a resource document of `model` needs loaded, less what the client's access policies hide. */
export function resourceSelection(
  registry: ModelRegistry,
  client: PrismaClientLike,
  model: ModelMeta,
  include: IncludeTree,
): Selection {
  return buildSelection(registry, model, include, policiesOf(client));
}

/** What a resource document of `model` as of a past time loads (`scalarSelection`). */
export function pastSelection(registry: ModelRegistry, client: PrismaClientLike, model: ModelMeta): Selection {
  return scalarSelection(registry, model, policiesOf(client));
}

/** A response document with the request's sparse fieldsets. */
export function resourceDocument(
  registry: ModelRegistry,
  options: Pick<ResolvedCrudApiOptions, 'endpoint' | 'idDivider'>,
  fieldsets: Fieldsets,
): CompoundDocument {
  return new CompoundDocument({ registry, endpoint: options.endpoint, idDivider: options.idDivider, fieldsets });
}
