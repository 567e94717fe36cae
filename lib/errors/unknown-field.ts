import { CrudApiError } from './crud-api.error.js';

/** A field the caller may not see (hidden, internal) is answered exactly like a field that does not exist. */
export function unknownField(model: string, field: string): CrudApiError {
  return new CrudApiError('invalid-argument', `Unknown field "${field}" on model ${model}`);
}
