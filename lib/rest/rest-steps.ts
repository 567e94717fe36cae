import type { CostedStep } from '../limits/request-cost.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import { REST_OPERATIONS, type RestOperation } from '../metadata/rest-operations.js';
import type { ApiRequest } from '../shared/api-request.js';
import type { RequestScope } from '../telemetry/request-telemetry.js';

/** The Prisma operation each REST operation runs, by its name (the telemetry scope's `operation`). */
const RUNS: ReadonlyMap<string, string | undefined> = new Map(
  Object.values(REST_OPERATIONS).map((operation: RestOperation) => [operation.name, operation.runs]),
);

/** Each atomic operation's Prisma write: a relationship's change updates the row that holds it. */
const ATOMIC_OPERATION: Readonly<Record<string, string>> = { add: 'create', update: 'update', remove: 'delete' };

/** The relations an `include` names, each once (`author,comments.author` names three). */
function includedRelations(query: string): number {
  const include = new URLSearchParams(query).get('include');
  if (!include) return 0;
  const nodes = new Set<string>();
  for (const path of include.split(',')) {
    const names = path.split('.');
    names.forEach((_name, index) => nodes.add(names.slice(0, index + 1).join('.')));
  }
  return nodes.size;
}

const isObject = (value: unknown): value is Record<string, any> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The steps of a JSON:API request, for its cost: its operation with the relations it includes, or
 * each operation of an atomic request. Read leniently: a request the interface refuses costs its base.
 */
export function restSteps(registry: ModelRegistry, request: ApiRequest, scope: RequestScope): CostedStep[] {
  if (scope.operation !== REST_OPERATIONS.atomic.name) {
    const operation = scope.operation === undefined ? undefined : RUNS.get(scope.operation);
    return [{ model: scope.model, operation, relations: includedRelations(request.query) }];
  }
  const operations: unknown = isObject(request.body) ? request.body['atomic:operations'] : undefined;
  if (!Array.isArray(operations)) return [{ relations: 0 }];
  return operations.map((item) => {
    const { op, data, ref } = isObject(item) ? item : {};
    const type = (isObject(ref) ? ref.type : undefined) ?? (isObject(data) ? data.type : undefined);
    const relationship = isObject(ref) && ref.relationship !== undefined;
    return {
      model: typeof type === 'string' ? registry.findByTypeName(type)?.name : undefined,
      operation: relationship
        ? 'update'
        : typeof op === 'string' && Object.hasOwn(ATOMIC_OPERATION, op)
          ? ATOMIC_OPERATION[op]
          : undefined,
      relations: 0,
    };
  });
}
