import { type OperationRow, prismaOperation } from '../metadata/prisma-operations.js';
import { OPERATION_FEATURES } from '../prisma/provider-capabilities.js';

/** Whether a name is an operation of the table (whatever model and database it is asked of). */
export function isRpcOperationName(name: string): boolean {
  return prismaOperation(name) !== undefined;
}

/**
 * The operation behind a URL segment, if it exists on the provider; the module's own operations
 * (soft delete's, history's) when `offered` says the model's delegate has them.
 */
export function findRpcOperation(
  name: string,
  provider: string,
  offered: (operation: OperationRow) => boolean = () => false,
): OperationRow | undefined {
  const operation = prismaOperation(name);
  if (!operation || ((operation.softDeleteOnly || operation.historyOnly) && !offered(operation))) return undefined;
  if (operation.requires && !OPERATION_FEATURES[operation.requires].supports(provider)) return undefined;
  return operation;
}

/** Why `findRpcOperation` found nothing, for the client: an unknown name, or what the database lacks. */
export function missingOperationMessage(name: string, provider: string): string {
  const requires = prismaOperation(name)?.requires;
  return requires ? OPERATION_FEATURES[requires].refusal(name, provider) : `Unknown operation "${name}".`;
}

/** Whether the arguments of this method travel in the `q` query parameter rather than the body. */
export function readsArgsFromQuery(method: string): boolean {
  return method === 'GET' || method === 'DELETE';
}
