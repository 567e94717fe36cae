import type { ModelMeta } from '../metadata/model-meta.types.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { TakeRule } from '../metadata/prisma-operations.js';
import { isPlainObject, type RpcArgs } from './parse-rpc-args.js';

type Selection = Record<string, unknown>;

/** `take` limited to ±maxTake (negative takes read backwards); a missing one set when `fill`. */
function limitTake(args: Selection, maxTake: number, fill: boolean): Selection {
  const { take } = args;
  if (typeof take === 'number') return Math.abs(take) > maxTake ? { ...args, take: Math.sign(take) * maxTake } : args;
  return take === undefined && fill ? { ...args, take: maxTake } : args;
}

/**
 * Applies `maxTake` inside `include` / `select`: every to-many relation read is at most
 * `maxTake` rows, so a nested include cannot bypass the top-level cap.
 */
function limitNested(args: Selection, model: ModelMeta, registry: ModelRegistry, maxTake: number): Selection {
  const limited = { ...args };
  for (const key of ['include', 'select'] as const) {
    const selection = args[key];
    if (!isPlainObject(selection)) continue;
    // Object.fromEntries defines own properties: a key never reaches a prototype setter.
    limited[key] = Object.fromEntries(
      Object.entries(selection).map(([name, value]) => {
        const field = registry.findField(model, name);
        const related = field?.relation && registry.findByModelName(field.relation.model);
        if (!field || !related || (value !== true && !isPlainObject(value))) return [name, value];
        const relationArgs = value === true ? {} : value;
        const read = field.isList ? limitTake(relationArgs, maxTake, true) : relationArgs;
        return [name, value === true && read === relationArgs ? true : limitNested(read, related, registry, maxTake)];
      }),
    );
  }
  return limited;
}

/** The arguments with the `maxTake` option applied; unchanged when the option is not set. */
export function applyMaxTake(
  args: RpcArgs | undefined,
  rule: TakeRule | undefined,
  maxTake: number | undefined,
  model: ModelMeta,
  registry: ModelRegistry,
): RpcArgs | undefined {
  if (maxTake === undefined) return args;
  const topLevel = rule ? limitTake(args ?? {}, maxTake, rule === 'default') : args;
  return topLevel && limitNested(topLevel, model, registry, maxTake);
}
