import { PrismaClientKnownRequestError } from '@prisma/client/runtime/client';

import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { policyViolation } from './policy.error.js';
import type { PolicyWhere } from './policy.types.js';
import type { PolicySet } from './policy-set.js';
import { anyOfIds } from './rule-where.js';

type Row = Record<string, unknown>;

/** The identity of a selector's values, to count each referenced row once. */
const keyOf = (where: PolicyWhere): string =>
  Object.values(where)
    .map((value) => String(value))
    .join('\u0000');

/**
 * What one write must prove besides its own rules: rows named by foreign-key values must exist and
 * be readable (checked before the write), and rows an update changed must still satisfy the
 * post-update rule (checked after it, in the same transaction, so a failure rolls it back).
 */
export class WriteChecks {
  private readonly references = new Map<ModelMeta, Map<string, PolicyWhere>>();
  private readonly updated = new Map<ModelMeta, Row[]>();
  private at?: Date;

  /** The time of the write's soft deletes: one for all the rows it marks. */
  deletedAt(): Date {
    return (this.at ??= new Date());
  }

  /** A foreign key written by value names `where` of `target`: as with `connect`, an unreadable row counts as missing. */
  reference(target: ModelMeta, where: PolicyWhere): void {
    const byKey = this.references.get(target) ?? new Map<string, PolicyWhere>();
    byKey.set(keyOf(where), where);
    this.references.set(target, byKey);
  }

  /** Rows an update changes (by primary key). */
  updatedRows(model: ModelMeta, rows: readonly Row[]): void {
    if (rows.length > 0) this.updated.set(model, [...(this.updated.get(model) ?? []), ...rows]);
  }

  /**
   * One query per referenced model. A missing or unreadable row fails exactly as the database's own
   * foreign-key error (P2003), so the answer cannot tell the two apart.
   */
  async verifyReferences(tx: PrismaClientLike, set: PolicySet): Promise<void> {
    for (const [target, byKey] of this.references) {
      const wheres = [...byKey.values()];
      const found: number = await tx[toTypeName(target.name)].count({
        where: { AND: [{ OR: wheres }, set.rule(target.name, 'read')] },
      });
      if (found < wheres.length) throw foreignKeyViolation(target);
    }
    this.references.clear();
  }

  /** Every updated row must satisfy its model's post-update rule (PostgreSQL's `WITH CHECK`). */
  async verifyUpdated(tx: PrismaClientLike, set: PolicySet): Promise<void> {
    for (const [model, rows] of this.updated) {
      const rule = set.rule(model.name, 'postUpdate');
      if (rule === true) continue;
      const distinct = anyOfIds(model, rows);
      const expected: number = await tx[toTypeName(model.name)].count({ where: distinct });
      const permitted: number = await tx[toTypeName(model.name)].count({ where: { AND: [distinct, rule] } });
      if (permitted < expected)
        throw policyViolation(`The access policy does not let you update a ${model.name} into this state`);
    }
    this.updated.clear();
  }
}

function foreignKeyViolation(target: ModelMeta): Error {
  return new PrismaClientKnownRequestError(`Foreign key constraint violated: no ${target.name} row with this key`, {
    code: 'P2003',
    clientVersion: 'nestjs-crud-api',
    meta: { modelName: target.name },
  });
}
