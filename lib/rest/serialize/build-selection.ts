import { idSelect } from '../../metadata/id-select.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import type { IncludeTree } from '../query/parse-include.js';
import { foreignKeyForIds, relationshipFields } from './resource-members.js';

/**
 * The Prisma arguments that shape a loaded row: `include` when every scalar field is wanted (what
 * Prisma returns anyway, and a smaller query shape for its query cache than listing every field),
 * `select` when an access policy hides some, nothing when neither relations nor hiding apply.
 */
export type Selection =
  { select: Record<string, unknown> } | { include: Record<string, unknown> } | Record<string, never>;

/** Related rows of an included to-many relationship, in a stable order. */
function idOrder(model: ModelMeta): Record<string, 'asc'>[] {
  return model.idFields.map((name) => ({ [name]: 'asc' as const }));
}

/**
 * What a resource object needs, loaded in one query tree: the scalar fields the caller may see,
 * the ids behind to-one linkage that no local foreign key gives, and the included relationships
 * nested. To-many relationships that are not included load nothing (links only). Under access
 * policies, a foreign key does not prove the related row readable, so linkage to a model the
 * caller cannot read in full is loaded through the relation (the policy nulls it).
 */
export function buildSelection(
  registry: ModelRegistry,
  model: ModelMeta,
  include: IncludeTree,
  policies?: PolicyInspector,
): Selection {
  const relations: Record<string, unknown> = {};
  for (const field of relationshipFields(registry, model)) {
    const related = registry.findByModelName(field.type)!;
    const nested = include.get(field.name);
    if (nested) {
      const selection = buildSelection(registry, related, nested, policies);
      relations[field.name] = field.isList
        ? { ...selection, orderBy: idOrder(related) }
        : Object.keys(selection).length
          ? selection
          : true;
    } else if (
      !field.isList &&
      (!foreignKeyForIds(field, related) || policies?.readsEveryRow(related.name) === false)
    ) {
      relations[field.name] = { select: idSelect(related) };
    }
  }
  const hidden = policies?.hiddenFields(model.name);
  if (hidden?.size) return { select: { ...visibleScalars(registry, model, hidden), ...relations } };
  return Object.keys(relations).length ? { include: relations } : {};
}

/**
 * What a read as of a past time loads (`asOf`): the scalar fields the caller may see and no
 * relation, which has no past; to-one linkage then comes from the foreign keys as they were.
 */
export function scalarSelection(registry: ModelRegistry, model: ModelMeta, policies?: PolicyInspector): Selection {
  const hidden = policies?.hiddenFields(model.name);
  return hidden?.size ? { select: visibleScalars(registry, model, hidden) } : {};
}

function visibleScalars(registry: ModelRegistry, model: ModelMeta, hidden: ReadonlySet<string>): Record<string, true> {
  const select: Record<string, true> = {};
  for (const field of registry.fieldsOf(model)) {
    if (!field.relation && !hidden.has(field.name)) select[field.name] = true;
  }
  return select;
}
