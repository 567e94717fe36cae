import { CrudApiError } from '../errors/crud-api.error.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { PolicySet } from './policy-set.js';
import { isPlainObject } from './rule-where.js';

/**
 * Refuses (403 `client-id-not-allowed`) the create data of one row or a list that gives a value to a
 * primary-key field the database generates, unless `mayChoose(field)`. A chosen id would tell
 * whether a row the caller cannot read has it (a unique violation, or a created row).
 */
export function refuseClientIds(model: ModelMeta, data: unknown, mayChoose: (field: string) => boolean): void {
  for (const row of Array.isArray(data) ? data : [data]) {
    if (!isPlainObject(row)) continue;
    const chosen = model.idFields.find(
      (field) => model.fields[field]!.hasDefault && row[field] !== undefined && !mayChoose(field),
    );
    if (chosen) {
      throw new CrudApiError('client-id-not-allowed', `${model.name}.${chosen} is assigned by the server.`);
    }
  }
}

/**
 * `refuseClientIds` for the caller: an id is chosen only where a field write rule explicitly allows
 * it. Without policies every row is readable, so there is nothing to tell and ids stay free.
 */
export function checkClientIds(set: PolicySet, model: ModelMeta, data: unknown): void {
  if (!set.hasPolicies) return;
  refuseClientIds(model, data, (field) => set.grantsWrite(model.name, field));
}
