import type { Request } from 'express';
import type { PrismaErrorMapping } from './filters/prisma-error-map.js';
import type { DataModelMeta } from './metadata/model-meta.types.js';
import type { CrudApiPolicies, DefaultPolicy, PolicyContext } from './policies/policy.types.js';
import type { PrismaClientLike } from './prisma/prisma-client-like.js';

export interface CrudApiModuleOptions {
  /** Base URL of the REST API, used to build every JSON:API link (`https://api.example.com/api/rest`). */
  endpoint: string;
  /** Default and maximum page size of REST collections; `Infinity` disables pagination. Default 100. */
  pageSize?: number;
  /** The `modelMeta` export of the module written by `nestjs-crud-api-generator`. */
  modelMeta: DataModelMeta;
  /** The Prisma client serving every request (give this or `getPrisma`). */
  prisma?: PrismaClientLike;
  /** The Prisma client for one request, e.g. one extended with the caller's identity; called once per request. */
  getPrisma?: (request: Request) => PrismaClientLike | Promise<PrismaClientLike>;
  /** Mount path of the REST controller. Default `api/rest`. */
  restPath?: string;
  /** Mount path of the RPC controller. Default `api/rpc`. */
  rpcPath?: string;
  /** Separator between the parts of a compound id in REST URLs and documents. Default `_`. */
  idDivider?: string;
  /** Models exposed on both interfaces, by Prisma name or URL name. Default: all. */
  models?: string[];
  /** Largest accepted request body, as a byte count or a string such as `'1mb'`. Default `'1mb'`. */
  bodyLimit?: number | string;
  /** Per model (Prisma or URL name): make it read-only or drop single Prisma operations (`deleteMany`). */
  operations?: Record<string, ModelOperationsOption>;
  /** Prisma error codes mapped to HTTP, merged over the defaults (`DEFAULT_PRISMA_ERROR_MAP`). */
  prismaErrorMap?: Record<string, PrismaErrorMapping>;
  /** Largest RPC `take` (in absolute value); a larger or missing `take` on findMany is capped. Default: unlimited. */
  maxTake?: number;
  /** Request-shape limits; each answers 400 beyond it. */
  limits?: CrudApiLimits;
  /**
   * Access policies per Prisma model name, enforced on both interfaces (see README "Access control").
   * Without this option every row and field is accessible.
   */
  policies?: CrudApiPolicies<any>;
  /** Decides models and actions without rules when `policies` is given. Default `'deny'`. */
  defaultPolicy?: DefaultPolicy;
  /** The context the policies see for one request. Default `{ user: request.user }`. */
  context?: (request: Request) => PolicyContext | Promise<PolicyContext>;
}

export interface ModelOperationsOption {
  /** Only reads (find*, count, aggregate, groupBy; REST GETs). */
  readOnly?: boolean;
  /** Prisma operation names refused for this model (REST routes map to create/update/delete). */
  exclude?: string[];
}

export interface CrudApiLimits {
  /** Deepest include path (`a.b.c` is 3). Default 3. */
  maxIncludeDepth?: number;
  /** Most include paths in one request. Default 10. */
  maxIncludePaths?: number;
  /** Most `filter[...]` parameters in one request. Default 20. */
  maxFilters?: number;
  /** Longest filter value, in characters. Default 1000. */
  maxFilterValueLength?: number;
  /** Longest REST filter selector chain (`filter[author][posts][title]` is 3). Default 4. */
  maxFilterDepth?: number;
  /** Deepest nesting of RPC arguments (objects and arrays, Json values included). Default 24. */
  maxArgumentDepth?: number;
  /** Most values (object members and array items, counted recursively) in one RPC call's arguments. Default 2000. */
  maxArgumentNodes?: number;
  /** Deepest RPC `include`/`select` nesting through relations (`include: { posts: { include: { author: true } } }` is 2). Default 4. */
  maxSelectionDepth?: number;
  /** Deepest nesting of a JSON request body on either interface (Json attribute values included). Default 32. */
  maxJsonDepth?: number;
}

/** What `forRootAsync` needs: the mount paths must be known when routes are declared. */
export interface CrudApiModuleAsyncOptions {
  imports?: any[];
  inject?: any[];
  useFactory: (...args: any[]) => CrudApiModuleOptions | Promise<CrudApiModuleOptions>;
  restPath?: string;
  rpcPath?: string;
}

/** The options with every default applied. */
export type ResolvedCrudApiOptions = Omit<CrudApiModuleOptions, 'limits'> &
  Required<Pick<CrudApiModuleOptions, 'pageSize' | 'restPath' | 'rpcPath' | 'idDivider' | 'bodyLimit'>> & {
    limits: Required<CrudApiLimits>;
  };
