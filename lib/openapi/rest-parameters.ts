import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { CrudApiLimits } from '../options/crud-api-options.interface.js';
import { FILTER_OPERATORS, operatorApplies } from '../rest/query/filter-operators.js';
import { isSortableType } from '../scalars/scalar-codecs.js';
import type { DocumentedFields } from './documented-fields.js';
import { type JsonSchema, ref } from './openapi.types.js';
import { restNames } from './rest-schemas.js';

/** Beyond this many valid paths, `include`/`sort` are described in words instead of enumerated. */
const MAX_ENUMERATED_PATHS = 200;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `^(a|b)(,(a|b))*$`, optionally with a `-` before each item. */
function commaListPattern(items: readonly string[], signed: boolean): string {
  const item = `${signed ? '-?' : ''}(${items.map(escape).join('|')})`;
  return `^${item}(,${item})*$`;
}

/** Every relationship path from a model up to `depth` (include=a.b.c), or undefined past the cap. */
function includePaths(fields: DocumentedFields, model: ModelMeta, depth: number): string[] | undefined {
  const paths: string[] = [];
  const walk = (current: ModelMeta, prefix: string, left: number): boolean => {
    for (const field of fields.relationships(current)) {
      const path = `${prefix}${field.name}`;
      paths.push(path);
      if (paths.length > MAX_ENUMERATED_PATHS) return false;
      if (left > 1 && !walk(fields.related(field), `${path}.`, left - 1)) return false;
    }
    return true;
  };
  return walk(model, '', depth) ? paths : undefined;
}

/** Every sort key (fields, through to-one relationships up to `depth`), or undefined past the cap. */
function sortPaths(fields: DocumentedFields, model: ModelMeta, depth: number): string[] | undefined {
  const paths: string[] = [];
  const walk = (current: ModelMeta, prefix: string, left: number): boolean => {
    for (const field of fields.all(current)) {
      if (field.isList) continue;
      if (!field.relation && isSortableType(field.type)) paths.push(`${prefix}${field.name}`);
      else if (field.relation && left > 1 && !walk(fields.related(field), `${prefix}${field.name}.`, left - 1))
        return false;
      if (paths.length > MAX_ENUMERATED_PATHS) return false;
    }
    return true;
  };
  return walk(model, '', depth) ? paths : undefined;
}

const BOOLEAN_TEXT: JsonSchema = { enum: ['true', 'false'] };

/** The operator suffixes (`$contains`) a field can be filtered with on this database. */
export function filterOperatorsOf(field: FieldMeta, provider: string): string[] {
  return [...FILTER_OPERATORS]
    .filter(
      ([, operator]) =>
        operatorApplies(operator, field) && (!operator.providers || operator.providers.includes(provider)),
    )
    .map(([name]) => name);
}

/** A model's `filter[...]` object: `field` and `field$op` keys, relationships as the related model's filter. */
export function filterSchema(fields: DocumentedFields, model: ModelMeta): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of fields.all(model)) {
    if (field.relation) {
      properties[field.name] = {
        anyOf: [{ type: 'string' }, ref(restNames(fields.related(field)).filter)],
        description: `Comma-separated ids of the related ${toTypeName(field.type)} (any matches), or filters on its fields (filter[${field.name}][field]=…).`,
      };
      properties[`${field.name}$null`] = {
        ...BOOLEAN_TEXT,
        description: `\`true\`: no related ${toTypeName(field.type)}; \`false\`: some.`,
      };
      continue;
    }
    for (const operator of filterOperatorsOf(field, fields.registry.provider)) {
      const value = FILTER_OPERATORS.get(operator)!.value === 'boolean' ? BOOLEAN_TEXT : { type: 'string' };
      properties[`${field.name}${operator}`] = { ...value, description: OPERATOR_DESCRIPTIONS[operator] ?? operator };
    }
  }
  return { type: 'object', additionalProperties: false, properties };
}

const OPERATOR_DESCRIPTIONS: Readonly<Record<string, string>> = {
  '': 'Equals; comma-separated values match any of them.',
  $not: 'Differs from every comma-separated value.',
  $null: '`true`: the field is null; `false`: it is not.',
  $lt: 'Less than (any of the comma-separated values).',
  $lte: 'Less than or equal.',
  $gt: 'Greater than.',
  $gte: 'Greater than or equal.',
  $contains: 'Contains the text literally (no wildcards).',
  $startsWith: 'Starts with the text.',
  $endsWith: 'Ends with the text.',
  $icontains: 'Contains the text, case-insensitively.',
  $search: 'Full-text search: every word must match.',
  $has: 'The list has the value.',
  $hasEvery: 'The list has every comma-separated value.',
  $hasSome: 'The list has some comma-separated value.',
  $isEmpty: '`true`: the list is empty.',
};

const parameter = (name: string, schema: JsonSchema, description: string, extra: Record<string, unknown> = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
  ...extra,
});
/** `filter[...]`, `page[...]`, `fields[...]`; the empty example keeps Swagger UI from sending a made-up value of every member. */
const DEEP_OBJECT = { style: 'deepObject', explode: true, example: {} };
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

/** Component names of one model's query parameters. */
const parameterNames = (model: ModelMeta) => ({
  include: `${model.name}Include`,
  filter: `${model.name}Filter`,
  sort: `${model.name}Sort`,
});

/** `include` and `fields[type]`: every read of resources. */
export function resourceParameters(model: ModelMeta): unknown[] {
  return [parameterRef(parameterNames(model).include), parameterRef('Fields')];
}

/** `filter`, `sort`, `page` and `Prefer`: every collection (resources or linkage) of a model. */
export function collectionParameters(model: ModelMeta): unknown[] {
  const names = parameterNames(model);
  return [parameterRef(names.filter), parameterRef(names.sort), parameterRef('Page'), parameterRef('Prefer')];
}

/** The query parameters of every model, as components (the include and sort patterns are long). */
export function restParameterComponents(
  fields: DocumentedFields,
  limits: Required<CrudApiLimits>,
  pageSize: number,
): Record<string, unknown> {
  const models = fields.registry.models;
  const fieldsets = Object.fromEntries(
    models.map((other) => [
      toTypeName(other.name),
      { type: 'string', description: `Comma-separated fields of ${toTypeName(other.name)} to render.` },
    ]),
  );
  const size: JsonSchema = Number.isFinite(pageSize)
    ? { type: 'integer', minimum: 1, maximum: pageSize }
    : { type: 'integer', minimum: 1 };
  const components: Record<string, unknown> = {
    Fields: parameter(
      'fields',
      { type: 'object', additionalProperties: false, properties: fieldsets },
      'Sparse fieldsets: fields[type]=a,b renders only those fields of that type.',
      DEEP_OBJECT,
    ),
    Page: parameter(
      'page',
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          offset: { type: 'integer', minimum: 0 },
          limit: { type: 'integer', minimum: 1, description: `Page size, capped at ${pageSize}.` },
          size: { ...size, description: 'Cursor pagination: page size.' },
          after: { type: 'string', description: 'Cursor pagination: the page after this cursor.' },
          before: { type: 'string', description: 'Cursor pagination: the page before this cursor.' },
        },
      },
      `Offset pagination (page[offset], page[limit]; default and largest limit ${pageSize}) or cursor pagination (page[size], page[after] | page[before]); never both.`,
      DEEP_OBJECT,
    ),
    Prefer: {
      name: 'Prefer',
      in: 'header',
      required: false,
      description:
        'count=exact|estimated|none: how meta.total is found (Preference-Applied says when it was honoured).',
      schema: { type: 'string' },
    },
  };
  for (const model of models) {
    const names = parameterNames(model);
    const paths = includePaths(fields, model, limits.maxIncludeDepth) ?? [];
    const include: JsonSchema = paths.length
      ? { type: 'string', pattern: commaListPattern(paths, false) }
      : { type: 'string', maxLength: 0 };
    components[names.include] = parameter(
      'include',
      include,
      `Related resources to include, comma-separated relationship paths (at most ${limits.maxIncludePaths}, depth ${limits.maxIncludeDepth}).${paths.length ? ` Valid paths: ${paths.join(', ')}.` : ' This type has no relationships.'}`,
    );
    components[names.filter] = parameter(
      'filter',
      ref(restNames(model).filter),
      `Filters: filter[field]=value or filter[field$op]=value, through relationships as filter[rel][field]=value (at most ${limits.maxFilters} filters, depth ${limits.maxFilterDepth}, values up to ${limits.maxFilterValueLength} characters). Several filters all apply.`,
      DEEP_OBJECT,
    );
    const sorts = sortPaths(fields, model, limits.maxFilterDepth);
    components[names.sort] = parameter(
      'sort',
      sorts ? { type: 'string', pattern: commaListPattern(sorts, true) } : { type: 'string' },
      `Comma-separated sort keys, "-" for descending; to-one relationship fields as rel.field. The id breaks ties.${sorts ? ` Keys: ${sorts.join(', ')}.` : ''}`,
    );
  }
  return components;
}
