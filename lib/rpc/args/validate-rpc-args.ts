import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import { prismaOperation } from '../../metadata/prisma-operations.js';
import type { CrudApiLimits } from '../../options/crud-api-options.interface.js';
import type { ModelFieldModes } from '../../rules/field-modes.js';
import { throwInvalidValues } from '../../rules/invalid-value.js';
import type { ArgsOrigin } from './args.error.js';
import { type ArgsContext, fail, mapMembers, UNKNOWN } from './args-context.js';
import { assertArgumentLimits } from './argument-limits.js';
import { OPERATION_ARGS } from './operation-args.js';

export interface RpcArgsValidation {
  registry: ModelRegistry;
  model: ModelMeta;
  /** Prisma operation name (`findMany`...). */
  operation: string;
  /** Where the arguments came from, for error sources: `q` or the body. */
  origin: ArgsOrigin;
  limits: Required<Pick<CrudApiLimits, 'maxArgumentDepth' | 'maxArgumentNodes' | 'maxSelectionDepth'>>;
  /** Fields the caller's policies hide (`policiesOf(client)?.hiddenFields`); answered like unknown fields. */
  hiddenFields?: (modelName: string) => ReadonlySet<string>;
  /** How the caller may use each model's fields (`policiesOf(client)?.fieldModes`): what write data may give. */
  fieldModes?: (modelName: string) => ModelFieldModes;
  /**
   * Whether the write rules report values of a wrong type (`policiesOf(client)?.reportsInvalidValues`):
   * then they are left in the data as `InvalidValue`s, else every one is refused here at once.
   */
  reportsInvalidValues?: boolean;
}

/**
 * The arguments of one RPC operation checked against Prisma 7's grammar for the model, as the
 * caller may see it: unknown keys, hidden fields and relations to models that are not exposed,
 * fields the server sets given in write data,
 * values of the wrong type, prototype keys and oversized or overly deep input are each a 400
 * `invalid-argument` naming the path. Returns the arguments rebuilt from what was checked (no
 * client object is passed on as it is), with `contains`/`startsWith`/`endsWith` made literal.
 */
export function validateRpcArgs(
  args: Record<string, unknown> | undefined,
  options: RpcArgsValidation,
): Record<string, unknown> | undefined {
  const { registry, model, operation, origin, limits, hiddenFields, fieldModes } = options;
  const ctx: ArgsContext = {
    registry,
    provider: registry.provider,
    origin,
    maxSelectionDepth: limits.maxSelectionDepth,
    hiddenFields,
    fieldModes,
  };
  if (args === undefined) return undefined;
  assertArgumentLimits(args, limits, (path, problem) => fail(ctx, path, problem));
  const grammar = prismaOperation(operation)?.args;
  if (!grammar) fail(ctx, undefined, `unknown operation "${operation}"`);
  const rules = OPERATION_ARGS[grammar];
  const valid = mapMembers(ctx, args, undefined, (key, value, path) => {
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    return rule ? rule(model)(ctx, value, path) : UNKNOWN;
  });
  // Without write rules nothing else could report them with other issues: refused here, all at once.
  if (!options.reportsInvalidValues) throwInvalidValues(valid);
  return valid;
}
