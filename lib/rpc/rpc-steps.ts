import type { CostedStep } from '../limits/request-cost.js';
import { selectedRelations } from '../limits/request-cost.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { ApiRequest } from '../shared/api-request.js';
import type { RequestScope } from '../telemetry/request-telemetry.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The arguments' JSON part: superjson's `meta` carries value types only, never a relation. */
function argsOf(request: ApiRequest): unknown {
  if (request.method === 'GET' || request.method === 'DELETE' || request.method === 'HEAD') {
    const q = new URLSearchParams(request.query).get('q');
    if (q === null) return undefined;
    try {
      return JSON.parse(q);
    } catch {
      return undefined;
    }
  }
  return request.body;
}

/** A sequential transaction's `{ model, op, args }` items, in either of its wire forms. */
function transactionItems(body: unknown): unknown[] {
  if (Array.isArray(body)) return body;
  if (!isObject(body)) return [];
  if (Array.isArray(body.data)) return body.data;
  return Object.entries(body)
    .filter(([key]) => key !== 'meta')
    .map(([, item]) => item);
}

/**
 * The steps of an RPC request, for its cost (lib/limits/request-cost.ts): its operation with the
 * relations its arguments select, or each operation of a sequential transaction. Read leniently:
 * a request the interface refuses costs its base.
 */
export function rpcSteps(registry: ModelRegistry, request: ApiRequest, scope: RequestScope): CostedStep[] {
  const models = registry.meta.models;
  if (scope.operation !== '$transaction') {
    const relations = scope.model ? selectedRelations(models, scope.model, argsOf(request)) : 0;
    return [{ model: scope.model, operation: scope.operation, relations }];
  }
  return transactionItems(request.body).map((item) => {
    const { model: type, op, args } = isObject(item) ? item : {};
    const model = typeof type === 'string' ? registry.findByTypeName(type)?.name : undefined;
    return {
      model,
      operation: typeof op === 'string' ? op : undefined,
      relations: model ? selectedRelations(models, model, args) : 0,
    };
  });
}
