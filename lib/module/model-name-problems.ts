import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { CrudApiOptions } from '../options/crud-api-options.interface.js';
import { isRpcOperationName } from '../rpc/rpc-operations.js';

const OPERATION_RULE_KEYS: ReadonlySet<string> = new Set(['readOnly', 'exclude']);

/** Whether `name` is a model of the schema, by its Prisma name (`Post`) or its URL name (`post`). */
function isModelName(meta: DataModelMeta, name: string): boolean {
  return Object.values(meta.models).some((model) => model.name === name || toTypeName(model.name) === name);
}

function quoted(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(', ');
}

function modelProblems(meta: DataModelMeta, models: readonly unknown[] | undefined): string[] {
  const unknown = (models ?? []).filter((name) => typeof name === 'string' && !isModelName(meta, name)) as string[];
  return unknown.length ? [`"models": unknown model ${quoted(unknown)}`] : [];
}

function operationRuleProblems(modelName: string, rule: unknown): string[] {
  const at = (key?: string) => `"operations.${modelName}${key ? `.${key}` : ''}"`;
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule))
    return [`${at()}: must be { readOnly?, exclude? }`];
  const problems: string[] = [];
  const extra = Object.keys(rule).filter((key) => !OPERATION_RULE_KEYS.has(key));
  if (extra.length) problems.push(`${at()}: unknown key ${quoted(extra)} (allowed: "readOnly", "exclude")`);
  const { readOnly, exclude } = rule as { readOnly?: unknown; exclude?: unknown };
  if (readOnly !== undefined && typeof readOnly !== 'boolean') problems.push(`${at('readOnly')}: must be a boolean`);
  if (exclude !== undefined && !(Array.isArray(exclude) && exclude.every((name) => typeof name === 'string'))) {
    problems.push(`${at('exclude')}: must be a list of Prisma operation names`);
  } else {
    const unknown = ((exclude as string[] | undefined) ?? []).filter((name) => !isRpcOperationName(name));
    if (unknown.length) problems.push(`${at('exclude')}: unknown operation ${quoted(unknown)}`);
  }
  return problems;
}

function operationsProblems(meta: DataModelMeta, operations: Record<string, unknown> | undefined): string[] {
  return Object.entries(operations ?? {}).flatMap(([modelName, rule]) =>
    isModelName(meta, modelName)
      ? operationRuleProblems(modelName, rule)
      : [`"operations": unknown model "${modelName}"`],
  );
}

/**
 * The options' references to the schema that do not exist in it: a misspelt model or operation
 * name would otherwise leave a model exposed or an operation open without a word.
 */
export function modelNameProblems(options: Pick<CrudApiOptions, 'modelMeta' | 'models' | 'operations'>): string[] {
  return [
    ...modelProblems(options.modelMeta, options.models),
    ...operationsProblems(options.modelMeta, options.operations),
  ];
}
