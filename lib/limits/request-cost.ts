import type { ModelMeta } from '../metadata/model-meta.types.js';
import { prismaOperation } from '../metadata/prisma-operations.js';

/**
 * What a request costs against a rate limit, in units (docs/rate-limits.md reads this table): a
 * read of one row less than a read of many, a write more than a read, each relation a read
 * includes one more, and a transaction or atomic request the sum of its steps.
 */
export const REQUEST_COSTS = {
  read: { one: 1, many: 2 },
  write: { one: 3, many: 5 },
  /** Each relation a step includes or selects, at any depth. */
  relation: 1,
} as const;

/** One operation of a request, as its interface names it in Prisma's terms. */
export interface CostedStep {
  /** The Prisma model; unknown for a type the request names wrongly (the interface refuses it). */
  model?: string;
  /** The Prisma operation (`findMany`, `create`...); unknown for a name the interface refuses. */
  operation?: string;
  /** Relations the step includes or selects. */
  relations: number;
}

/** The cost of one step; a step the interface will refuse costs what the cheapest read does. */
export function stepCost(step: CostedStep): number {
  const operation = step.operation === undefined ? undefined : prismaOperation(step.operation);
  if (!operation) return REQUEST_COSTS.read.one;
  return REQUEST_COSTS[operation.access][operation.rows] + step.relations * REQUEST_COSTS.relation;
}

/** At most this many nodes of a request's selection are walked: the walk must cost less than the request. */
const WALKED_NODES = 1_000;

/**
 * The relations a Prisma selection (`include`, `select`, nested at any depth) reaches from
 * `model`; a shape that is not a selection counts nothing (the interface refuses it).
 */
export function selectedRelations(models: Readonly<Record<string, ModelMeta>>, model: string, args: unknown): number {
  let budget = WALKED_NODES;
  const walk = (current: string, selection: unknown): number => {
    const meta = models[current];
    if (!meta || typeof selection !== 'object' || selection === null) return 0;
    let count = 0;
    for (const key of ['include', 'select'] as const) {
      const fields = (selection as Record<string, unknown>)[key];
      if (typeof fields !== 'object' || fields === null) continue;
      for (const [name, value] of Object.entries(fields)) {
        if (--budget < 0) return count;
        const field = meta.fields[name];
        if (field?.kind !== 'relation' || !value) continue;
        count += 1 + walk(field.type, value);
      }
    }
    return count;
  };
  return walk(model, args);
}
