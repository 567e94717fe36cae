import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { isPlainObject } from './apply-write-rules.js';

type Data = Record<string, any>;

/** The value a foreign-key write sets (`null` unlinks): `{ set: value }` unwrapped; undefined when computed (`{ increment }`). */
export function columnValue(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  return Object.keys(value).length === 1 && Object.hasOwn(value, 'set') ? value.set : undefined;
}

/** The unique selector of the related row whose `references` hold `values` (compound ones by their Prisma name). */
function referencedRow(target: ModelMeta, references: readonly string[], values: unknown[]): Data | undefined {
  const columns = Object.fromEntries(references.map((reference, index) => [reference, values[index]]));
  if (references.length === 1) return columns;
  const constraint = target.uniqueConstraints.find(
    (unique) => unique.fields.length === references.length && unique.fields.every((name) => references.includes(name)),
  );
  return constraint && { [constraint.name]: columns };
}

/**
 * The relation write that sets `relation`'s foreign key as `data`'s columns do: `{}` for a null key
 * of a create (the relation left out leaves it null), undefined when the columns cannot be said as
 * a relation (a key left out, computed, or partly null; null for a required relation's update).
 */
function asRelationWrite(
  relation: FieldMeta,
  target: ModelMeta,
  data: Data,
  kind: 'create' | 'update',
): Data | undefined {
  const { fields, references } = relation.relation!;
  const values = fields.map((key) => columnValue(data[key]));
  if (values.some((value) => value === undefined)) return undefined;
  if (values.every((value) => value === null)) {
    if (kind === 'create') return {};
    return relation.isOptional ? { disconnect: true } : undefined;
  }
  if (values.some((value) => value === null)) return undefined;
  const connect = referencedRow(target, references, values);
  return connect && { connect };
}

/**
 * Prisma takes a write's data in one of two forms and refuses a mixture: checked, relations written
 * as relations (`post: { connect: { id } }`), or unchecked, foreign keys written as columns
 * (`postId`). The server sets its foreign keys as columns (server-set defaults, hooks); when the
 * data writes a relation that holds a foreign key, the data is in the checked form, and the keys the
 * client did not give are turned into it: `authorId: 3` into `author: { connect: { id: 3 } }`. So
 * either form a client chooses writes the same row. Keys the client gave itself stay as they are:
 * a mixture of its own is Prisma's to refuse.
 */
export function inClientForm(
  model: ModelMeta,
  data: Data,
  input: Data,
  kind: 'create' | 'update',
  related: (name: string) => ModelMeta,
): Data {
  // The same object: the model has no rules, nothing of the server's is in it.
  if (data === input) return data;
  const relations = Object.values(model.fields).filter((field) => (field.relation?.fields.length ?? 0) > 0);
  if (!relations.some((field) => data[field.name] !== undefined)) return data;
  let out: Data | undefined;
  for (const relation of relations) {
    const keys = relation.relation!.fields;
    if (data[relation.name] !== undefined || !keys.some((key) => data[key] !== undefined)) continue;
    if (keys.some((key) => Object.hasOwn(input, key) && input[key] !== undefined)) continue;
    const write = asRelationWrite(relation, related(relation.relation!.model), data, kind);
    if (!write) continue;
    out ??= { ...data };
    for (const key of keys) delete out[key];
    if (Object.keys(write).length > 0) out[relation.name] = write;
  }
  return out ?? data;
}
