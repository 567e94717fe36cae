import { operationNames } from '../metadata/prisma-operations.js';

/**
 * Prisma's fluent API (`post.findUnique(...).author()`), rewritten as the single call Prisma itself
 * makes of it: the root operation selecting the relation path, then the value at the end of the path.
 */
export interface FluentStep {
  /** The relation field the step follows. */
  field: string;
  /** The relation method's own arguments (`select`, `include`, `where`... of the related rows). */
  args?: Record<string, unknown>;
}

/** The operations whose result is one record, the ones Prisma offers relation methods on. */
export const FLUENT_OPERATIONS: ReadonlySet<string> = operationNames(
  (operation) => operation.result === 'row' || operation.result === 'row-or-null',
);

function withoutSelection(args: Record<string, unknown> | undefined): Record<string, unknown> {
  const { select: _select, include: _include, omit: _omit, ...rest } = args ?? {};
  return rest;
}

/** The root call's arguments: its own selection replaced by the nested `select` of the path. */
export function fluentArgs(rootArgs: unknown, steps: readonly FluentStep[]): unknown {
  if (steps.length === 0) return rootArgs;
  let selection: unknown = steps[steps.length - 1].args ?? true;
  for (let i = steps.length - 2; i >= 0; i--) {
    selection = { ...withoutSelection(steps[i].args), select: { [steps[i + 1].field]: selection } };
  }
  return {
    ...withoutSelection(rootArgs as Record<string, unknown> | undefined),
    select: { [steps[0].field]: selection },
  };
}

/** The value at the end of the path; `null` when a record on the way is missing, as in Prisma. */
export function fluentResult(result: unknown, steps: readonly FluentStep[]): unknown {
  let value = result;
  for (const { field } of steps) {
    if (value === null || value === undefined) return null;
    value = (value as Record<string, unknown>)[field];
  }
  return value;
}
