import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { isPlainObject } from '../policies/rule-where.js';

/**
 * A `where` with the values of its equality conditions taken out (`slots`): the wheres of
 * subscribers that differ only in those values (each caller's own id in a policy's filter) share
 * a `key`, and a changed row is checked once for all of them (`FootprintIndex`).
 */
export interface WhereShape {
  /** The where's text, each slot's value replaced by its type: equal keys, equal wheres but for the slots. */
  key: string;
  /** The fields of the slots, in the order of `values`. */
  fields: FieldMeta[];
  /** The value of each slot. */
  values: unknown[];
}

/**
 * The scalar types whose equality `whereMatches` decides exactly as JavaScript's `===` on the
 * same values tells it (strings without surrogates: UTF-16 and UTF-8 order them alike), so that
 * a row's value finds its slot value in a `Map`.
 */
const SLOT_TYPES = new Set(['Int', 'Float', 'String', 'Boolean']);

const SURROGATE = /[\uD800-\uDFFF]/;

/** Whether a value compares with the `Map` key of the same value only: a finite number, a boolean, a string without surrogates. */
export const isSlotValue = (value: unknown): boolean =>
  typeof value === 'boolean' ||
  (typeof value === 'number' && Number.isFinite(value)) ||
  (typeof value === 'string' && !SURROGATE.test(value));

/** Thrown while walking a where whose text could tell two different wheres alike. */
const UNSHAPED = Symbol('unshaped');

/**
 * The shape of `where` on `model`, or undefined when some value of it has no exact text (a Date,
 * a BigInt, a Decimal: those wheres are checked one by one).
 */
export function whereShape(model: ModelMeta, where: unknown): WhereShape | undefined {
  const shape: WhereShape = { key: '', fields: [], values: [] };
  try {
    shape.key = whereText(model, where, shape);
    return shape;
  } catch (error) {
    if (error === UNSHAPED) return undefined;
    throw error;
  }
}

const COMBINATIONS = new Set(['AND', 'OR', 'NOT']);

function whereText(model: ModelMeta, where: unknown, shape: WhereShape): string {
  if (where === undefined) return '';
  if (!isPlainObject(where)) return literalText(where);
  const parts: string[] = [];
  for (const key of Object.keys(where)) {
    const value = where[key];
    if (value === undefined) continue;
    const field = Object.hasOwn(model.fields, key) ? model.fields[key]! : undefined;
    let text: string;
    if (COMBINATIONS.has(key)) {
      text = Array.isArray(value)
        ? `[${value.map((item) => whereText(model, item, shape)).join(',')}]`
        : whereText(model, value, shape);
    } else if (field && slotField(field)) text = filterText(field, value, shape);
    else text = literalText(value);
    parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

const slotField = (field: FieldMeta): boolean =>
  !field.isList && (field.kind === 'enum' || (field.kind === 'scalar' && SLOT_TYPES.has(field.type)));

/** A field's filter: its value (`{ authorId: 5 }`) or its `equals` is a slot; other operators are kept as they are. */
function filterText(field: FieldMeta, filter: unknown, shape: WhereShape): string {
  if (!isPlainObject(filter)) return slotText(field, filter, shape);
  const parts = Object.keys(filter).flatMap((operator) => {
    const operand = filter[operator];
    if (operand === undefined) return [];
    const text = operator === 'equals' ? slotText(field, operand, shape) : literalText(operand);
    return [`${JSON.stringify(operator)}:${text}`];
  });
  return `{${parts.join(',')}}`;
}

function slotText(field: FieldMeta, value: unknown, shape: WhereShape): string {
  if (!isSlotValue(value)) return literalText(value);
  shape.fields.push(field);
  shape.values.push(value);
  // Not JSON: no literal reads the same.
  return `$${typeof value}`;
}

/** The JSON of a value that JSON writes exactly (null, booleans, finite numbers, strings, plain arrays and objects). */
function literalText(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  if (Array.isArray(value)) {
    if (value.includes(undefined)) throw UNSHAPED;
    return `[${value.map(literalText).join(',')}]`;
  }
  if (!isPlainObject(value)) throw UNSHAPED;
  const parts = Object.keys(value).flatMap((key) =>
    value[key] === undefined ? [] : [`${JSON.stringify(key)}:${literalText(value[key])}`],
  );
  return `{${parts.join(',')}}`;
}
