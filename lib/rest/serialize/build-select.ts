import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import type { IncludeTree } from '../query/parse-include.js';
import { idSelect } from '../resource-id.js';
import { foreignKeyForIds, relationshipFields } from './resource-members.js';

/** Related rows of an included to-many relationship, in a stable order. */
function idOrder(model: ModelMeta): Record<string, 'asc'>[] {
  return model.idFields.map((name) => ({ [name]: 'asc' as const }));
}

/**
 * The Prisma `select` that loads everything a resource object needs in one query tree: all scalar
 * fields the caller may see, the ids behind to-one linkage that no local foreign key gives, and the
 * included relationships nested. To-many relationships that are not included load nothing (links
 * only). Under access policies, a foreign key does not prove the related row readable, so linkage
 * to a model the caller cannot read in full is loaded through the relation (the policy nulls it).
 */
export function buildSelect(
  registry: ModelRegistry,
  model: ModelMeta,
  include: IncludeTree,
  policies?: PolicyInspector,
): Record<string, unknown> {
  const select: Record<string, unknown> = {};
  const hidden = policies?.hiddenFields(model.name);
  for (const field of registry.fieldsOf(model)) {
    if (!field.relation && !hidden?.has(field.name)) select[field.name] = true;
  }
  for (const field of relationshipFields(registry, model)) {
    const related = registry.findByModelName(field.type)!;
    const nested = include.get(field.name);
    if (nested) {
      select[field.name] = {
        select: buildSelect(registry, related, nested, policies),
        ...(field.isList ? { orderBy: idOrder(related) } : {}),
      };
    } else if (!field.isList && (!foreignKeyForIds(field, related) || policies?.readsEveryRow(related.name) === false)) {
      select[field.name] = { select: idSelect(related) };
    }
  }
  return select;
}
