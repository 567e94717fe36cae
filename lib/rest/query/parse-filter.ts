import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { FieldMeta, ModelMeta } from '../../metadata/model-meta.types.js';
import { parseQueryValue } from '../attribute-codec.js';
import { tryParseResourceId } from '../resource-id.js';
import type { VisibleFields } from '../visible-fields.js';
import { FILTER_OPERATORS, type FilterOperator, operatorApplies, supportsSetMatch } from './filter-operators.js';
import type { RawFilter } from './parse-query.js';

type Where = Record<string, unknown>;

interface FilterScope {
  fields: VisibleFields;
  idDivider: string;
}

function bad(filter: RawFilter, message: string): CrudApiError {
  return new CrudApiError('invalid-query-parameter', message, { source: { parameter: filter.parameter } });
}

/**
 * All the conditions: one object when each names a different field (Prisma ANDs an object's
 * fields, and plans an `AND` list of objects as a costlier query shape), an `AND` list when a
 * field is filtered twice. Each condition has one
 * key; `Object.fromEntries` defines a key named `__proto__` as a member.
 */
function and(conditions: Where[]): Where | undefined {
  if (conditions.length <= 1) return conditions[0];
  const entries = conditions.flatMap((condition) => Object.entries(condition));
  const distinct = entries.length === conditions.length && new Set(entries.map(([key]) => key)).size === entries.length;
  return distinct ? Object.fromEntries(entries) : { AND: conditions };
}

/**
 * The Prisma `where` of the `filter[...]` parameters (rules 1-6 of the specification). Filters that
 * reach into the same relation are grouped, so on a to-many relation one related item must match
 * all of them ('some' over their AND).
 */
export function buildFilterWhere(
  scope: FilterScope,
  model: ModelMeta,
  filters: readonly RawFilter[],
  depth = 0,
): Where | undefined {
  const conditions: Where[] = [];
  const nested = new Map<string, { field: FieldMeta; filters: RawFilter[] }>();
  for (const filter of filters) {
    const name = filter.selectors[depth]!;
    const field = scope.fields.field(model, name);
    if (!field) throw bad(filter, `Unknown field ${quoteInput(name)} in ${quoteInput(filter.parameter)}.`);
    const isLast = depth === filter.selectors.length - 1;
    if (isLast) {
      conditions.push(field.relation ? relationCondition(scope, field, filter) : fieldCondition(scope, field, filter));
      continue;
    }
    if (!field.relation) throw bad(filter, `"${name}" is not a relationship; it has no fields to filter on.`);
    const group = nested.get(name) ?? { field, filters: [] };
    group.filters.push(filter);
    nested.set(name, group);
  }
  for (const [name, { field, filters: group }] of nested) {
    const related = scope.fields.registry.findByModelName(field.type)!;
    const inner = buildFilterWhere(scope, related, group, depth + 1) ?? {};
    conditions.push({ [name]: field.isList ? { some: inner } : { is: inner } });
  }
  return and(conditions);
}

function operatorOf(filter: RawFilter): FilterOperator {
  const operator = FILTER_OPERATORS.get(filter.operator ?? '');
  if (!operator) throw bad(filter, `Unknown filter operator ${quoteInput(filter.operator)}.`);
  return operator;
}

function booleanValue(filter: RawFilter): boolean {
  if (filter.value === 'true') return true;
  if (filter.value === 'false') return false;
  throw bad(filter, `${quoteInput(filter.parameter)} takes true or false.`);
}

function fieldCondition(scope: FilterScope, field: FieldMeta, filter: RawFilter): Where {
  const operator = operatorOf(filter);
  const provider = scope.fields.registry.provider;
  if (!operatorApplies(operator, field)) {
    throw bad(
      filter,
      `Operator "${filter.operator ?? '(equals)'}" cannot filter ${field.isList ? 'list ' : ''}field "${field.name}" (${field.type}${field.isOptional ? ', optional' : ''}).`,
    );
  }
  if (operator.providers && !operator.providers.includes(provider)) {
    throw bad(filter, `Operator "${filter.operator}" is not supported on ${provider}.`);
  }
  const context = { provider };
  const parse = (text: string) => parseQueryValue(field, text, scope.fields.registry.meta.enums, filter.parameter);
  switch (operator.value) {
    case 'boolean':
      return { [field.name]: operator.condition(booleanValue(filter), context) };
    case 'text':
      if (!/[\p{L}\p{N}]/u.test(filter.value))
        throw bad(filter, `${quoteInput(filter.parameter)} needs at least one word.`);
      return { [field.name]: operator.condition(filter.value, context) };
    case 'list':
      return { [field.name]: operator.condition(filter.value.split(',').map(parse), context) };
    case 'each': {
      const values = filter.value.split(',').map(parse);
      if (values.length === 1) return { [field.name]: operator.condition(values[0], context) };
      if (operator.several && supportsSetMatch(field)) return { [field.name]: operator.several(values) };
      return { [operator.join]: values.map((value) => ({ [field.name]: operator.condition(value, context) })) };
    }
  }
}

/** Filtering a relationship by related ids (rule 2), or by its presence with `$null`. */
function relationCondition(scope: FilterScope, field: FieldMeta, filter: RawFilter): Where {
  const related = scope.fields.registry.findByModelName(field.type)!;
  if (filter.operator === '$null') {
    const isNull = booleanValue(filter);
    if (field.isList) return { [field.name]: isNull ? { none: {} } : { some: {} } };
    return { [field.name]: isNull ? { is: null } : { isNot: null } };
  }
  if (filter.operator) throw bad(filter, `Relationship "${field.name}" can be filtered by id or with $null only.`);
  const ids = filter.value.split(',').map((raw) => {
    const values = tryParseResourceId(related, raw, scope.idDivider);
    if (!values) throw bad(filter, `${quoteInput(raw)} is not a valid ${field.name} id.`);
    return values;
  });
  const match = ids.length === 1 ? ids[0]! : { OR: ids };
  return { [field.name]: field.isList ? { some: match } : { is: match } };
}
