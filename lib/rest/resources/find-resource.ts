import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import { idSelect } from '../../metadata/id-select.js';
import { type ModelRegistry, toTypeName } from '../../metadata/model-registry.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';
import { formatResourceId, uniqueWhere } from '../resource-id.js';
import type { Selection } from '../serialize/build-selection.js';
import type { RelatedReference } from '../write/relationship-data.js';
import { modelDelegate, type Row } from './model-delegate.js';
import { type ResourceTarget, targetNotFound } from './resource-target.js';

/** The target's row with the selection (as of `past.asOf`, if given), 404 when the caller's client finds none. */
export async function findResource(
  registry: ModelRegistry,
  client: PrismaClientLike,
  target: ResourceTarget,
  selection: Selection,
  past: { asOf?: Date } = {},
): Promise<Row> {
  const row = await modelDelegate(registry, client, target.model).findUnique!({
    where: uniqueWhere(target.model, target.id),
    ...selection,
    ...past,
  });
  if (!row) throw targetNotFound(target);
  return row as Row;
}

/** 404 at its pointer for the first referenced related resource that does not exist. */
export async function assertReferencesExist(
  registry: ModelRegistry,
  idDivider: string,
  client: PrismaClientLike,
  references: readonly RelatedReference[],
): Promise<void> {
  for (const reference of references) {
    const found = (await modelDelegate(registry, client, reference.model).findMany!({
      where: { OR: reference.ids },
      select: idSelect(reference.model),
    })) as Row[];
    const foundIds = new Set(found.map((row) => String(formatResourceId(reference.model, row, idDivider))));
    const missing = reference.ids
      .map((ids) => String(formatResourceId(reference.model, ids, idDivider)))
      .find((id) => !foundIds.has(id));
    if (missing !== undefined) {
      throw new CrudApiError('not-found', `No ${toTypeName(reference.model.name)} with id ${quoteInput(missing)}.`, {
        source: { pointer: reference.pointer },
      });
    }
  }
}
