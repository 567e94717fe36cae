import type { StandardJSONSchemaV1, StandardSchemaV1 } from '@standard-schema/spec';
import { getMetadataStorage, validate, type ValidationError, ValidationTypes } from 'class-validator';

import type { ValidationIssue } from '../errors/crud-api.error.js';
import type { RuleSchema } from './rules.types.js';

type JsonSchema = Record<string, unknown>;
type DtoClass = new () => object;
type DtoMetadata = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];
type IssuePath = ValidationIssue['path'];

/**
 * What a validator says about the fields of a write, for the OpenAPI request bodies (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1): each property's schema, to merge into the caller's own.
 */
export type RuleJsonSchema = { properties: Record<string, JsonSchema>; required?: string[] };

/**
 * Whether `value` can be a model's `validate.create` or `validate.update`: a Standard Schema (v1), or
 * a class carrying class-validator decorators (a class without any would accept everything, which
 * is a mistake). For checking the `rules` option at start-up.
 */
export function isRuleSchema(value: unknown): value is RuleSchema {
  return isStandardSchema(value) || isDtoClass(value);
}

/**
 * The issues of one write's data (after the hooks) against a validator; none when it is valid.
 *
 * - A Standard Schema checks `data` as given: for `update` it is the application's own schema of an
 *   update (only the fields it changes, typically a partial one); no partial schema is derived.
 *   The issue's `code` is the vendor's own when it gives one (zod, arktype), else `invalid`.
 * - A class-validator class is filled with `data` (no class-transformer: nested objects stay plain,
 *   so nested DTOs are checked only when the data holds their instances). An update skips the
 *   missing properties. One issue per failed constraint, `code` being the constraint (`isEmail`).
 *
 * The validator's output (parsed or transformed values) is ignored: validation checks, hooks transform.
 * @throws Error when `schema` is neither (a configuration error).
 */
export async function validateWithSchema(
  schema: RuleSchema,
  data: Record<string, unknown>,
  kind: 'create' | 'update',
): Promise<ValidationIssue[]> {
  if (isStandardSchema(schema)) return standardIssues(await schema['~standard'].validate(data));
  if (isDtoClass(schema)) {
    const errors = await validate(dtoInstance(schema, data), {
      skipMissingProperties: kind === 'update',
      forbidUnknownValues: false,
    });
    return dtoIssues(errors, [], false);
  }
  throw new Error('rules: a validate schema must be a Standard Schema or a class with class-validator decorators');
}

/**
 * The validator's description of a write's fields as JSON Schema, when it has one: Standard Schemas
 * implementing Standard JSON Schema (zod 4, arktype; valibot through `@valibot/to-json-schema`'s
 * `toStandardJsonSchema`), and the common class-validator decorators. Properties the caller cannot
 * place (ones holding `$ref`s into the validator's own schema) are left out.
 */
export function jsonSchemaOf(schema: RuleSchema, kind: 'create' | 'update'): RuleJsonSchema | undefined {
  if (isStandardSchema(schema)) return standardJsonSchema(schema);
  if (isDtoClass(schema)) return dtoJsonSchema(schema, kind);
  return undefined;
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  // arktype's types are functions, zod's and valibot's schemas objects.
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<StandardSchemaV1>)['~standard'];
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}

function isDtoClass(value: unknown): value is DtoClass {
  return typeof value === 'function' && dtoMetadata(value as DtoClass).length > 0;
}

/** The constraints `validate` applies to an instance of `dto` (its parents' included, no groups). */
function dtoMetadata(dto: DtoClass): DtoMetadata[] {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
}

// Own properties defined, not assigned: a `__proto__` key in the data must not replace the prototype
// (which would take the instance away from its class's constraints).
function dtoInstance(dto: DtoClass, data: Record<string, unknown>): object {
  return Object.defineProperties(new dto(), Object.getOwnPropertyDescriptors(data));
}

function standardIssues(result: StandardSchemaV1.Result<unknown>): ValidationIssue[] {
  return (result.issues ?? []).map((issue) => ({
    // Array.from, not map: a vendor's path may be an Array subclass (arktype's read-only one).
    path: Array.from(issue.path ?? [], (segment) => pathKey(typeof segment === 'object' ? segment.key : segment)),
    message: issue.message,
    code: issueCode(issue),
  }));
}

function pathKey(key: PropertyKey): string | number {
  return typeof key === 'symbol' ? String(key) : key;
}

function issueCode(issue: StandardSchemaV1.Issue): string {
  const code = (issue as { code?: unknown }).code;
  return typeof code === 'string' ? code : 'invalid';
}

/** class-validator's error tree as issues; the children of an array's error are its items. */
function dtoIssues(errors: ValidationError[], parent: IssuePath, parentIsArray: boolean): ValidationIssue[] {
  return errors.flatMap((error) => {
    const path = [...parent, parentIsArray ? Number(error.property) : error.property];
    const own = Object.entries(error.constraints ?? {}).map(([code, message]) => ({ path, message, code }));
    return [...own, ...dtoIssues(error.children ?? [], path, Array.isArray(error.value))];
  });
}

// Vendor options of the conversion: zod throws on a type JSON Schema cannot express (a Date) unless
// told to describe it as `{}`, which the caller's own schema of the column then covers.
const LIBRARY_OPTIONS: Record<string, Record<string, unknown>> = { zod: { unrepresentable: 'any' } };

function standardJsonSchema(schema: StandardSchemaV1): RuleJsonSchema | undefined {
  const props = schema['~standard'] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  if (typeof props.jsonSchema?.input !== 'function') return undefined;
  const libraryOptions = Object.hasOwn(LIBRARY_OPTIONS, props.vendor) ? LIBRARY_OPTIONS[props.vendor] : undefined;
  let json: JsonSchema;
  try {
    json = props.jsonSchema.input({ target: 'draft-2020-12', libraryOptions });
  } catch {
    // The documentation is a courtesy: a validator that cannot describe itself still validates.
    return undefined;
  }
  return objectFragment(json);
}

function objectFragment(json: JsonSchema): RuleJsonSchema | undefined {
  if (json.type !== 'object' || typeof json.properties !== 'object' || json.properties === null) return undefined;
  const properties = Object.fromEntries(
    Object.entries(json.properties as Record<string, JsonSchema>).filter(([, property]) => !hasRef(property)),
  );
  const required = Array.isArray(json.required) ? (json.required as string[]) : [];
  return required.length > 0 ? { properties, required } : { properties };
}

function hasRef(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, item]) => key === '$ref' || hasRef(item));
}

/** The JSON Schema keywords of the class-validator constraints that have one. */
const DTO_KEYWORDS: Record<string, (constraints: unknown[]) => JsonSchema> = {
  isString: () => ({ type: 'string' }),
  isEmail: () => ({ type: 'string', format: 'email' }),
  minLength: ([min]) => ({ minLength: min }),
  maxLength: ([max]) => ({ maxLength: max }),
  isNumber: () => ({ type: 'number' }),
  isInt: () => ({ type: 'integer' }),
  min: ([min]) => ({ minimum: min }),
  max: ([max]) => ({ maximum: max }),
  isBoolean: () => ({ type: 'boolean' }),
  isIn: ([values]) => ({ enum: values }),
};

function dtoJsonSchema(dto: DtoClass, kind: 'create' | 'update'): RuleJsonSchema | undefined {
  const properties: Record<string, JsonSchema> = {};
  const optional = new Set<string>();
  for (const metadata of dtoMetadata(dto)) {
    // `@IsOptional()` and `@ValidateIf()` both let a missing property through.
    if (metadata.type === ValidationTypes.CONDITIONAL_VALIDATION) optional.add(metadata.propertyName);
    const keywords = metadata.name && Object.hasOwn(DTO_KEYWORDS, metadata.name) ? DTO_KEYWORDS[metadata.name] : null;
    if (!keywords) continue;
    const property = (properties[metadata.propertyName] ??= {});
    const described = keywords(metadata.constraints ?? []);
    if (metadata.each)
      Object.assign(property, { type: 'array', items: { ...(property.items as object), ...described } });
    else Object.assign(property, described);
  }
  const names = Object.keys(properties);
  if (names.length === 0) return undefined;
  // Every described constraint refuses a missing value; an update skips missing properties.
  const required = kind === 'create' ? names.filter((name) => !optional.has(name)) : [];
  return required.length > 0 ? { properties, required } : { properties };
}
