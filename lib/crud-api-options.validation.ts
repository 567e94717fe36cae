import {
  IsArray,
  IsDefined,
  IsIn,
  IsInstance,
  IsInt,
  ValidateNested,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Min,
  ValidateIf,
  validateSync,
} from 'class-validator';
import {
  DEFAULT_BODY_LIMIT,
  DEFAULT_ID_DIVIDER,
  DEFAULT_LIMITS,
  DEFAULT_PAGE_SIZE,
  DEFAULT_REST_PATH,
  DEFAULT_RPC_PATH,
} from './crud-api.constants.js';
import type { CrudApiModuleOptions, ResolvedCrudApiOptions } from './crud-api-options.interface.js';
import { validatePolicies } from './policies/policy-set.js';

const MOUNT_PATH = /^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/;

class CrudApiLimitsSchema {
  @IsOptional() @IsInt() @Min(1) maxIncludeDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxIncludePaths?: number;
  @IsOptional() @IsInt() @Min(1) maxFilters?: number;
  @IsOptional() @IsInt() @Min(1) maxFilterValueLength?: number;
  @IsOptional() @IsInt() @Min(1) maxFilterDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxArgumentDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxArgumentNodes?: number;
  @IsOptional() @IsInt() @Min(1) maxSelectionDepth?: number;
  @IsOptional() @IsInt() @Min(1) maxJsonDepth?: number;
}

/** class-validator schema of `CrudApiModuleOptions`. */
class CrudApiOptionsSchema {
  @IsUrl({ require_tld: false, require_protocol: true }, { message: 'endpoint must be an absolute URL' })
  endpoint!: string;

  @IsOptional()
  @IsNumber({ allowInfinity: true, allowNaN: false }, { message: 'pageSize must be a number or Infinity' })
  @Min(1)
  pageSize?: number;

  @IsObject({ message: 'modelMeta must be the object written by nestjs-crud-api-generator' })
  modelMeta!: object;

  @ValidateIf((options: CrudApiOptionsSchema) => options.getPrisma === undefined)
  @IsDefined({ message: 'prisma is required unless getPrisma is given' })
  @IsObject()
  prisma?: object;

  @IsOptional()
  @IsInstance(Function, { message: 'getPrisma must be a function (request) => PrismaClient' })
  getPrisma?: unknown;

  @IsOptional()
  @Matches(MOUNT_PATH, { message: 'restPath must be a path like "api/rest" (no leading or trailing slash)' })
  restPath?: string;

  @IsOptional()
  @Matches(MOUNT_PATH, { message: 'rpcPath must be a path like "api/rpc" (no leading or trailing slash)' })
  rpcPath?: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  idDivider?: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  models?: string[];

  @IsOptional()
  @ValidateIf((options: CrudApiOptionsSchema) => typeof options.bodyLimit !== 'number')
  @Matches(/^\d+(\.\d+)?\s*(b|kb|mb|gb)?$/i, { message: 'bodyLimit must be a byte count or a size like "1mb"' })
  bodyLimit?: number | string;

  @IsOptional()
  @IsObject()
  operations?: object;

  @IsOptional()
  @IsObject()
  prismaErrorMap?: object;

  @IsOptional()
  @IsInt()
  @Min(1)
  maxTake?: number;

  @IsOptional()
  @ValidateNested()
  limits?: CrudApiLimitsSchema;

  @IsOptional()
  @IsObject({ message: 'policies must be an object of rules per model name' })
  policies?: object;

  @IsOptional()
  @IsIn(['allow', 'deny'], { message: 'defaultPolicy must be "allow" or "deny"' })
  defaultPolicy?: string;

  @IsOptional()
  @IsInstance(Function, { message: 'context must be a function (request) => context' })
  context?: unknown;
}


/** Validates the options and applies the defaults; throws an error naming every bad option. */
export function resolveCrudApiOptions(options: CrudApiModuleOptions): ResolvedCrudApiOptions {
  const candidate = Object.assign(new CrudApiOptionsSchema(), options, {
    limits: options.limits && Object.assign(new CrudApiLimitsSchema(), options.limits),
  });
  const errors = validateSync(candidate, { forbidUnknownValues: false });
  if (errors.length > 0) {
    const details = errors.map((error) => `"${error.property}": ${Object.values(error.constraints ?? {}).join('; ')}`);
    throw new Error(`CrudApiModule: invalid option ${details.join(', ')}`);
  }
  if (options.policies) validatePolicies(options.policies, options.modelMeta);
  return {
    ...options,
    pageSize: options.pageSize ?? DEFAULT_PAGE_SIZE,
    restPath: options.restPath ?? DEFAULT_REST_PATH,
    rpcPath: options.rpcPath ?? DEFAULT_RPC_PATH,
    idDivider: options.idDivider ?? DEFAULT_ID_DIVIDER,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
  };
}
