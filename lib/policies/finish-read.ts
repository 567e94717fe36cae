import { idSelect } from '../metadata/id-select.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
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
 * `null` (one query per include path, whatever the number of rows), then hidden fields and the
 * keys the engine added are removed. Mutates and returns the result.
 */
export async function finishRead<T>(
  client: PrismaClientLike,
  set: PolicySet,
  shape: ResultShape,
  result: T,
): Promise<T> {
  await hideInvisibleToOne(client, shape, rowsOf(result));
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
