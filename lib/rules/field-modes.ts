import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import type { CrudApiRules, RuleContext, SoftDelete, VirtualField } from './rules.types.js';
import { isRuleSchema } from './validate-schema.js';

/** How clients may use one model's fields, from its rules (the same for every caller). */
export interface ModelFieldModes {
  /** Columns never in an answer and unknown to reads (filters, sorts, selections, aggregates): writeOnly and internal. */
  readonly unreadable: ReadonlySet<string>;
  /** Columns a client may not write: serverSet and internal (and the relations whose foreign key they are). */
  readonly unwritable: ReadonlySet<string>;
  /** Columns unknown to clients everywhere: internal (answered like a field that does not exist). */
  readonly internal: ReadonlySet<string>;
  /** Wire-only write fields, by name. */
  readonly virtual: ReadonlyMap<string, VirtualField>;
  /** Server-set columns filled from the caller's context on create. */
  readonly defaults: ReadonlyMap<string, (context: RuleContext) => unknown>;
}

export const NO_FIELD_MODES: ModelFieldModes = {
  unreadable: new Set(),
  unwritable: new Set(),
  internal: new Set(),
  virtual: new Map(),
  defaults: new Map(),
};

const compiled = new WeakMap<object, Map<string, ModelFieldModes>>();

/** The modes of one model (compiled once per rules object). */
export function fieldModes(rules: CrudApiRules | undefined, model: ModelMeta): ModelFieldModes {
  const written = rules && Object.hasOwn(rules, model.name) ? rules[model.name] : undefined;
  if (!written || (!written.fields && !written.virtual && !written.softDelete)) return NO_FIELD_MODES;
  let byModel = compiled.get(rules!);
  if (!byModel) compiled.set(rules!, (byModel = new Map()));
  let modes = byModel.get(model.name);
  if (!modes) {
    // Only deletes and restores set the soft-delete column.
    const fields = written.softDelete
      ? { ...written.fields, [written.softDelete.field]: 'serverSet' as const }
      : written.fields;
    byModel.set(model.name, (modes = compile(model, fields ?? {}, written.virtual ?? {})));
  }
  return modes;
}

function compile(
  model: ModelMeta,
  fields: NonNullable<CrudApiRules[string]['fields']>,
  virtual: Record<string, VirtualField>,
): ModelFieldModes {
  const unreadable = new Set<string>();
  const unwritable = new Set<string>();
  const internal = new Set<string>();
  const defaults = new Map<string, (context: RuleContext) => unknown>();
  for (const [name, mode] of Object.entries(fields)) {
    if (mode === 'writeOnly' || mode === 'internal') unreadable.add(name);
    if (mode !== 'writeOnly') unwritable.add(name);
    if (mode === 'internal') internal.add(name);
    if (typeof mode === 'object') defaults.set(name, mode.serverSet);
  }
  // A relation whose foreign key the server sets is set by the server too.
  for (const field of Object.values(model.fields)) {
    if (field.relation?.fields.some((key) => unwritable.has(key))) unwritable.add(field.name);
  }
  return { unreadable, unwritable, internal, virtual: new Map(Object.entries(virtual)), defaults };
}

/**
 * The row without the columns no client may read (write-only and internal): what a change event
 * carries to every listener, the outbox and its webhooks included, as no answer shows them either.
 */
export function readableRow<Row extends Record<string, unknown>>(modes: ModelFieldModes, row: Row): Row {
  if (modes.unreadable.size === 0) return row;
  const readable: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(row)) if (!modes.unreadable.has(name)) readable[name] = value;
  return readable as Row;
}

/** A virtual field as the interfaces describe and decode it: an optional scalar of its type. */
export function virtualFieldMeta(name: string, field: VirtualField): FieldMeta {
  return {
    name,
    kind: 'scalar',
    type: field.type,
    isList: false,
    isOptional: !field.required,
    isId: false,
    isUnique: false,
    hasDefault: false,
    isUpdatedAt: false,
    isForeignKey: false,
    relation: null,
  };
}

/** The virtual field of this name, as a field the interfaces decode and check, if there is one. */
export function virtualField(modes: ModelFieldModes, name: string): FieldMeta | undefined {
  const field = modes.virtual.get(name);
  return field && virtualFieldMeta(name, field);
}

/** How a caller may give a column or relation in a write's data. */
export type WriteAccess = 'writable' | 'server-set' | 'unknown';

/**
 * The one decision of both interfaces on a field in a write's data, for a caller that cannot see
 * `hidden` (its policies' hidden fields, which include the unreadable modes): write-only columns
 * are writable though unreadable; server-set ones, and relations whose foreign key is server-set,
 * are refused as such; internal ones and those the policies hide are unknown to the caller.
 */
export function writeAccess(modes: ModelFieldModes, hidden: ReadonlySet<string>, name: string): WriteAccess {
  if (modes.internal.has(name) || (hidden.has(name) && !modes.unreadable.has(name))) return 'unknown';
  return modes.unwritable.has(name) ? 'server-set' : 'writable';
}

/** Fails fast (at start-up) on rules naming a model or field the schema does not have. */
export function validateRules(rules: CrudApiRules, models: Readonly<Record<string, ModelMeta>>): void {
  for (const [modelName, modelRules] of Object.entries(rules)) {
    const model = Object.hasOwn(models, modelName) ? models[modelName] : undefined;
    if (!model) throw new Error(`rules: unknown model "${modelName}" (use the Prisma model name)`);
    for (const [name, mode] of Object.entries(modelRules.fields ?? {})) {
      const field = Object.hasOwn(model.fields, name) ? model.fields[name] : undefined;
      if (!field || field.relation) throw new Error(`rules: "${modelName}.${name}" is not a column of ${modelName}`);
      const valid =
        mode === 'writeOnly' ||
        mode === 'serverSet' ||
        mode === 'internal' ||
        (typeof mode === 'object' && mode !== null && typeof mode.serverSet === 'function');
      if (!valid) throw new Error(`rules: "${modelName}.${name}" has an unknown field mode`);
    }
    for (const [kind, schema] of Object.entries(modelRules.validate ?? {})) {
      if (schema !== undefined && !isRuleSchema(schema))
        throw new Error(
          `rules: ${modelName}.validate.${kind} must be a Standard Schema or a class-validator class with constraints`,
        );
    }
    for (const name of Object.keys(modelRules.virtual ?? {})) {
      if (Object.hasOwn(model.fields, name))
        throw new Error(`rules: virtual field "${modelName}.${name}" has the name of a field of ${modelName}`);
    }
    if (modelRules.history !== undefined && typeof modelRules.history !== 'boolean')
      throw new Error(`rules: ${modelName}.history must be true or false`);
    if (modelRules.softDelete) validateSoftDelete(modelRules.softDelete, model, rules, models);
  }
}

/** A soft-delete column is a nullable DateTime; a cascade follows a relation to soft-deleted rows that point here. */
function validateSoftDelete(
  softDelete: SoftDelete,
  model: ModelMeta,
  rules: CrudApiRules,
  models: Readonly<Record<string, ModelMeta>>,
): void {
  const where = `rules: ${model.name}.softDelete`;
  const column = Object.hasOwn(model.fields, softDelete.field) ? model.fields[softDelete.field] : undefined;
  if (!column || column.relation || column.type !== 'DateTime' || !column.isOptional || column.isList)
    throw new Error(`${where}.field must name a nullable DateTime column of ${model.name}`);
  if (rules[model.name]?.fields?.[softDelete.field] !== undefined)
    throw new Error(`${where}.field "${softDelete.field}" cannot have a field mode: the module sets it`);
  for (const name of softDelete.cascade ?? []) {
    const field = Object.hasOwn(model.fields, name) ? model.fields[name] : undefined;
    const target = field?.relation && models[field.relation.model];
    const opposite = target && field.relation!.oppositeField ? target.fields[field.relation!.oppositeField] : undefined;
    const dependent = field?.relation?.fields.length === 0 && (opposite?.relation?.fields.length ?? 0) > 0;
    if (!target || !dependent)
      throw new Error(
        `${where}.cascade: "${name}" is not a relation to rows whose foreign key points to ${model.name}`,
      );
    if (!rules[target.name]?.softDelete)
      throw new Error(`${where}.cascade: "${name}" leads to ${target.name}, which is not soft-deleted`);
  }
}
