import type { ModelMeta } from '../../metadata/model-meta.types.js';

/**
 * Ids of rows created offline. A queued create gives each id field the server sets (a default, not
 * in the data) a placeholder; later writes may name it (a comment on a post created offline), and
 * when the create is applied, its answer's values replace the placeholder in every queued write.
 * Int placeholders lie below every 32-bit integer, so no Int column value can be taken for one.
 */
const INT_PLACEHOLDER_BASE = -(2 ** 48);

/** What begins a text placeholder. */
const TEXT_PLACEHOLDER = '~offline-';

/** The placeholder of the `sequence`th create for a field of `type`; none for types no server default fills with an id. */
export function placeholderOf(type: string, sequence: number): number | bigint | string | undefined {
  switch (type) {
    case 'Int':
      return INT_PLACEHOLDER_BASE - sequence;
    case 'BigInt':
      return BigInt(INT_PLACEHOLDER_BASE) - BigInt(sequence);
    case 'String':
      return `${TEXT_PLACEHOLDER}${sequence}`;
    default:
      return undefined;
  }
}

/** The id fields a create leaves to the server (they have a default and the data gives none), with their placeholders. */
export function createdIds(model: ModelMeta | undefined, data: unknown, sequence: number): Record<string, unknown> {
  const given = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const ids: Record<string, unknown> = {};
  for (const name of model?.idFields ?? []) {
    const field = model!.fields[name]!;
    const placeholder = field.hasDefault && given[name] === undefined ? placeholderOf(field.type, sequence) : undefined;
    if (placeholder !== undefined) ids[name] = placeholder;
  }
  return ids;
}

/** A JSON leaf as a key: placeholders are matched by their JSON form (superjson writes a BigInt as text). */
export const leafKey = (value: unknown): string => JSON.stringify(typeof value === 'bigint' ? String(value) : value);

/** Every leaf of a JSON value that `known` has, replaced by what it maps to. */
export function replaceLeaves(json: unknown, known: ReadonlyMap<string, unknown>): unknown {
  if (Array.isArray(json)) return json.map((item) => replaceLeaves(item, known));
  if (typeof json === 'object' && json !== null)
    return Object.fromEntries(Object.entries(json).map(([name, value]) => [name, replaceLeaves(value, known)]));
  const key = leafKey(json);
  return known.has(key) ? known.get(key) : json;
}

/** The keys of `known` that leaves of a JSON value have. */
export function leavesIn(json: unknown, known: ReadonlyMap<string, unknown>, found = new Set<string>()): Set<string> {
  if (Array.isArray(json)) json.forEach((item) => leavesIn(item, known, found));
  else if (typeof json === 'object' && json !== null)
    Object.values(json).forEach((value) => leavesIn(value, known, found));
  else if (known.has(leafKey(json))) found.add(leafKey(json));
  return found;
}
