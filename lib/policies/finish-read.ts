import { idSelect } from '../metadata/id-select.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { foreignKeyGuards, type GuardedRelation } from './foreign-key-guards.js';
import type { ResultShape } from './plan-read.js';
import type { PolicySet } from './policy-set.js';
import { anyOfIds } from './rule-where.js';

type Row = Record<string, any>;

/** Rows of a result: a list, one row, or none. */
function rowsOf(result: unknown): Row[] {
  if (Array.isArray(result)) return result.filter((row) => row !== null && typeof row === 'object');
  return result !== null && typeof result === 'object' ? [result as Row] : [];
}

function keyOf(model: ModelMeta, row: Row): string {
  return model.idFields.map((field) => String(row[field])).join('\u0000');
}

/**
 * Makes a read's result safe to return: included to-one rows the caller may not read become
 * `null` (one query per include path, whatever the number of rows), and so do the foreign keys
 * naming them (one query per include path and relation, none when the relation is included); then
 * hidden fields and the keys the engine added are removed. Mutates and returns the result.
 */
export async function finishRead<T>(
  client: PrismaClientLike,
  set: PolicySet,
  shape: ResultShape,
  result: T,
): Promise<T> {
  await hideInvisibleToOne(client, shape, rowsOf(result));
  await hideInvisibleForeignKeys(client, set, shape, rowsOf(result));
  stripFields(set, shape, rowsOf(result));
  return result;
}

async function hideInvisibleToOne(client: PrismaClientLike, shape: ResultShape, rows: Row[]): Promise<void> {
  for (const [field, child] of shape.relations) {
    const related = rows.flatMap((row) => rowsOf(row[field]));
    if (child.toOne && child.toOneRule && related.length > 0) {
      const visible: Row[] = await client[toTypeName(child.model.name)].findMany({
        where: { AND: [anyOfIds(child.model, related), child.toOneRule] },
        select: idSelect(child.model),
      });
      const keys = new Set(visible.map((row) => keyOf(child.model, row)));
      for (const row of rows) {
        if (row[field] && !keys.has(keyOf(child.model, row[field]))) row[field] = null;
      }
    }
    await hideInvisibleToOne(
      client,
      child,
      rows.flatMap((row) => rowsOf(row[field])),
    );
  }
}

async function hideInvisibleForeignKeys(
  client: PrismaClientLike,
  set: PolicySet,
  shape: ResultShape,
  rows: Row[],
): Promise<void> {
  for (const relation of foreignKeyGuards(set, shape.model).relations) {
    const linked = rows.filter((row) => relation.keys.every((key) => row[key] !== null && row[key] !== undefined));
    if (linked.length === 0) continue;
    // An included relation was checked already: its row is null exactly when the caller cannot read it.
    const visible = shape.relations.has(relation.field.name)
      ? (row: Row) => row[relation.field.name] !== null
      : await visibleReferences(client, relation, linked);
    for (const row of linked) if (!visible(row)) for (const key of relation.keys) row[key] = null;
  }
  for (const [field, child] of shape.relations)
    await hideInvisibleForeignKeys(
      client,
      set,
      child,
      rows.flatMap((row) => rowsOf(row[field])),
    );
}

/** Which of the rows' foreign keys name a readable row: one query for all of them. */
async function visibleReferences(
  client: PrismaClientLike,
  relation: GuardedRelation,
  rows: Row[],
): Promise<(row: Row) => boolean> {
  const tuples = rows.map((row) => relation.keys.map((key) => row[key]));
  const referenced =
    relation.references.length === 1
      ? { [relation.references[0]!]: { in: [...new Set(tuples.map(([value]) => value))] } }
      : { OR: tuples.map((tuple) => Object.fromEntries(relation.references.map((field, i) => [field, tuple[i]]))) };
  const found: Row[] = await client[toTypeName(relation.target.name)].findMany({
    where: { AND: [referenced, relation.rule] },
    select: Object.fromEntries(relation.references.map((field) => [field, true])),
  });
  const tupleKey = (values: unknown[]) => values.map((value) => String(value)).join('\u0000');
  const keys = new Set(found.map((row) => tupleKey(relation.references.map((field) => row[field]))));
  return (row) => keys.has(tupleKey(relation.keys.map((key) => row[key])));
}

function stripFields(set: PolicySet, shape: ResultShape, rows: Row[]): void {
  const remove = [...set.hiddenFields(shape.model.name), ...shape.added];
  for (const row of rows) for (const field of remove) delete row[field];
  for (const [field, child] of shape.relations)
    stripFields(
      set,
      child,
      rows.flatMap((row) => rowsOf(row[field])),
    );
}
