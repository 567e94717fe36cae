export { CrudApiModule } from './crud-api.module.js';
export { CRUD_API_OPTIONS } from './crud-api.constants.js';
export type {
  CrudApiModuleAsyncOptions,
  CrudApiModuleOptions,
  ResolvedCrudApiOptions,
} from './crud-api-options.interface.js';
export { resolveCrudApiOptions } from './crud-api-options.validation.js';
export type * from './metadata/model-meta.types.js';
export { ModelRegistry, toTypeName } from './metadata/model-registry.js';
export type { PrismaClientLike } from './prisma/prisma-client-like.js';
export { PrismaClientResolver } from './prisma/prisma-client.resolver.js';
export { RestController } from './rest/rest.controller.js';
export { RestService, type RelationshipChange } from './rest/rest.service.js';
export { RpcController } from './rpc/rpc.controller.js';
export { RpcService } from './rpc/rpc.service.js';
export { RPC_OPERATIONS, type RpcOperation } from './rpc/rpc-operations.js';
export { registerPrismaTypes, type DecimalConstructor } from './rpc/rpc-superjson.js';
export { CrudApiExceptionFilter, renderJsonApiError, renderRpcError } from './filters/crud-api-exception.filter.js';
export { CrudApiError, type CrudApiErrorOptions, type ErrorSource } from './filters/crud-api.error.js';
export { ERROR_CODES, type ErrorCode } from './filters/error-codes.js';
export { DEFAULT_PRISMA_ERROR_MAP, type PrismaErrorMapping } from './filters/prisma-error-map.js';
export type { ApiResponse } from './http/api-response.js';
export { policiesOf, withPolicies, type PolicyInspector, type WithPoliciesOptions } from './policies/with-policies.js';
export { DEFAULT_POLICY, validatePolicies } from './policies/policy-set.js';
export { POLICY_REASONS } from './policies/policy.errors.js';
export type {
  CrudApiPolicies,
  DefaultPolicy,
  FieldRule,
  ModelPolicy,
  PoliciesFor,
  PolicyAction,
  PolicyContext,
  PolicyRule,
  PolicyWhere,
} from './policies/policy.types.js';
