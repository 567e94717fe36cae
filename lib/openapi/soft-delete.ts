import { HARD_DELETE_PARAMETER, SOFT_DELETE_FLAG, WITH_DELETED_PARAMETER } from '../shared/soft-delete.constants.js';
import { mapOperations } from './document-security.js';
import type { OpenApiDocument } from './openapi.types.js';

const FLAG = { type: 'string', enum: [SOFT_DELETE_FLAG] };

/** `withDeleted=true`, the parameter of every read and hard delete when the application soft-deletes a model. */
const WITH_DELETED = {
  name: WITH_DELETED_PARAMETER,
  in: 'query',
  required: false,
  description: `${SOFT_DELETE_FLAG}: the deleted rows the readDeleted rule permits count too, on every soft-deleted model the request reaches: a read answers them, a hard delete can purge one. Without it deleted rows do not exist.`,
  schema: FLAG,
};

/** The components name of `withDeleted`. */
const WITH_DELETED_COMPONENT = 'WithDeleted';

/** `withDeleted`, as a reference to its component (which a document with soft-deleted models has). */
export const WITH_DELETED_REF = { $ref: `#/components/parameters/${WITH_DELETED_COMPONENT}` };

/** `hardDelete=true` of a REST delete of a soft-deleted type. */
export const HARD_DELETE = {
  name: HARD_DELETE_PARAMETER,
  in: 'query',
  required: false,
  description: `${SOFT_DELETE_FLAG}: remove the resource for good instead of marking it deleted, when the hardDelete rule permits it (403 otherwise); with withDeleted=true, a deleted one too.`,
  schema: FLAG,
};

/** What a restore's errors mean. */
export const RESTORE_ERRORS: Readonly<Record<number, string>> = {
  404: 'Not found: no such row, it is not deleted, or the restore rule does not permit it',
  409: 'Conflict: a live row took a unique value of the row since its delete',
};

/** What a hard delete's refusal means. */
export const HARD_DELETE_ERRORS: Readonly<Record<number, string>> = {
  403: 'Forbidden (operation not allowed, client id, access policy), or the hardDelete rule refuses',
};

/** The document with `withDeleted` on every read (each GET), and its component. */
export function withDeletedReads(document: OpenApiDocument): OpenApiDocument {
  const paths = mapOperations(document.paths, (method, operation) =>
    method === 'get'
      ? { ...operation, parameters: [...((operation.parameters as unknown[] | undefined) ?? []), WITH_DELETED_REF] }
      : operation,
  );
  return {
    ...document,
    paths,
    components: {
      ...document.components,
      parameters: { ...document.components.parameters, [WITH_DELETED_COMPONENT]: WITH_DELETED },
    },
  };
}
