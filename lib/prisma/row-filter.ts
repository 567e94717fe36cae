import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { isPlainObject } from '../shared/plain-object.js';

/**
 * A condition's value for a row, as SQL evaluates it: `true`, `false`, or `null` (unknown: a
 * comparison with NULL); a row is in a query's answer only when its `where` is `true`.
 */
type Truth = boolean | null;

/** Thrown inside the evaluation for what it cannot decide; `whereMatches` answers `undefined`. */
const UNDECIDED = Symbol('undecided');

const undecided = (): never => {
  throw UNDECIDED;
};

type Row = Readonly<Record<string, unknown>>;

/** How the database compares strings: exactly, and whether `LIKE` ignores ASCII case (SQLite). */
interface StringRules {
  ordered: boolean;
  likeIgnoresAsciiCase: boolean;
}

/**
 * Databases whose string comparisons are known: SQLite's BINARY collation, PostgreSQL's equality
 * (its ordering follows a locale, so no `lt`/`gt` there). MySQL's usual collations ignore case and
 * trailing spaces: no string condition is decided there, nor on other databases.
 */
const STRING_RULES: Readonly<Record<string, StringRules>> = {
  sqlite: { ordered: true, likeIgnoresAsciiCase: true },
  postgresql: { ordered: false, likeIgnoresAsciiCase: false },
};

/**
 * Whether `row` of `model` satisfies the Prisma `where`, as `findMany({ where })` would answer on
 * the `provider`'s database: `undefined` when that cannot be told from the row alone (relation
 * filters, JSON, Bytes and Decimal fields, `mode: 'insensitive'`, full-text search, field
 * references, unknown operators, a column missing from the row) or when the database's semantics
 * are not known here.
 */
export function whereMatches(model: ModelMeta, where: unknown, row: Row, provider: string): boolean | undefined {
  try {
    return whereTruth(model, where, row, provider) === true;
  } catch (error) {
    if (error === UNDECIDED) return undefined;
    throw error;
  }
}

/**
 * Kleene's AND and OR of the truths of `items`, stopping at the first false (AND) or true (OR),
 * which decides whatever the others are: the rest is neither evaluated nor needs to be decidable.
 */
function all<T>(items: Iterable<T>, truthOf: (item: T) => Truth): Truth {
  let truth: Truth = true;
  for (const item of items) {
    const next = truthOf(item);
    if (next === false) return false;
    if (next === null) truth = null;
  }
  return truth;
}

const any = <T>(items: Iterable<T>, truthOf: (item: T) => Truth): Truth =>
  not(all(items, (item) => not(truthOf(item))));

const not = (truth: Truth): Truth => (truth === null ? null : !truth);

function whereTruth(model: ModelMeta, where: unknown, row: Row, provider: string): Truth {
  if (where === undefined) return true;
  if (!isPlainObject(where)) return undecided();
  return all(Object.keys(where), (key) => {
    const value = where[key];
    if (value === undefined) return true;
    if (!COMBINATIONS.has(key)) return keyTruth(model, key, value, row, provider);
    const items = combined(key, value);
    const truthOf = (item: unknown) => whereTruth(model, item, row, provider);
    if (key === 'OR') return any(items, truthOf);
    return key === 'AND' ? all(items, truthOf) : all(items, (item) => not(truthOf(item)));
  });
}

/**
 * The conditions an `AND`, `OR` or `NOT` combines (`AND` and `NOT` take one or a list). Prisma
 * drops empty conditions rather than reading them as SQL would (`NOT: {}`, `OR: [{}, …]`): where
 * dropping one could change the truth, it is undecided.
 */
function combined(key: string, value: unknown): unknown[] {
  if (key === 'OR' && !Array.isArray(value)) return undecided();
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0 || (key !== 'AND' && items.some(isEmpty)) || items.every(isEmpty)) return undecided();
  return items;
}

/** A `where` with no condition in it: undefined values, empty field filters, combinations of nothing. */
const isEmpty = (where: unknown): boolean =>
  Array.isArray(where)
    ? where.every(isEmpty)
    : isPlainObject(where) &&
      Object.entries(where).every(([key, value]) =>
        COMBINATIONS.has(key)
          ? value === undefined || isEmpty(value)
          : value === undefined || (isPlainObject(value) && Object.values(value).every((item) => item === undefined)),
      );

const COMBINATIONS = new Set(['AND', 'OR', 'NOT']);

/** A field's condition, or a compound unique selector (`userId_postId: { userId, postId }`). */
function keyTruth(model: ModelMeta, key: string, value: unknown, row: Row, provider: string): Truth {
  const field = Object.hasOwn(model.fields, key) ? model.fields[key]! : undefined;
  if (field) return fieldTruth(field, value, row, provider);
  const compound = model.uniqueConstraints.find((unique) => unique.name === key && unique.fields.length > 1);
  if (!compound || !isPlainObject(value)) return undecided();
  return all(compound.fields, (name) => fieldTruth(model.fields[name]!, value[name], row, provider));
}

/** The scalar types whose values compare here as the database compares them. */
const DECIDED_TYPES = new Set(['String', 'Int', 'Float', 'Boolean', 'DateTime', 'BigInt']);

function fieldTruth(field: FieldMeta, filter: unknown, row: Row, provider: string): Truth {
  if (filter === undefined) return true;
  if (field.kind === 'relation' || field.isList) return undecided();
  if (field.kind === 'scalar' && !DECIDED_TYPES.has(field.type)) return undecided();
  if (!Object.hasOwn(row, field.name)) return undecided();
  const cell = row[field.name];
  if (!isPlainObject(filter)) return equalsTruth(field, cell, filter, provider);
  // `mode: 'insensitive'` changes how the other operators compare.
  if (filter.mode !== undefined && filter.mode !== 'default') return undecided();
  return all(Object.keys(filter), (operator) =>
    filter[operator] === undefined || operator === 'mode'
      ? true
      : operatorTruth(field, operator, filter[operator], cell, provider),
  );
}

function operatorTruth(field: FieldMeta, operator: string, operand: unknown, cell: unknown, provider: string): Truth {
  switch (operator) {
    case 'equals':
      return equalsTruth(field, cell, operand, provider);
    case 'not':
      // `not: null` is IS NOT NULL; `not: value` and `not: { … }` negate, NULL staying unknown. Prisma
      // does not negate twice a `not` in a `not`, nor negate an empty filter.
      if (!isPlainObject(operand)) return not(equalsTruth(field, cell, operand, provider));
      if (operand.not !== undefined || Object.values(operand).every((item) => item === undefined)) return undecided();
      return not(fieldTruth(field, operand, { [field.name]: cell }, provider));
    case 'in':
    case 'notIn': {
      if (!Array.isArray(operand) || operand.includes(null)) return undecided();
      const found = any(operand, (item) => equalsTruth(field, cell, item, provider));
      return operator === 'in' ? found : not(found);
    }
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      return orderTruth(field, operator, cell, operand, provider);
    case 'contains':
    case 'startsWith':
    case 'endsWith':
      return likeTruth(field, operator, cell, operand, provider);
    default:
      // `mode: 'insensitive'`, `search`, list and JSON operators.
      return undecided();
  }
}

/** `field = value`; `null` is IS NULL. */
function equalsTruth(field: FieldMeta, cell: unknown, value: unknown, provider: string): Truth {
  if (value === null) return cell === null;
  // Undecided where string equality is not known (MySQL's collations).
  if (field.kind === 'scalar' && field.type === 'String') stringRules(provider);
  if (field.kind === 'enum' && typeof value !== 'string') return undecided();
  if (cell === null) return null;
  return compare(field, cell, value) === 0;
}

function orderTruth(field: FieldMeta, operator: string, cell: unknown, value: unknown, provider: string): Truth {
  if (value === null || field.kind === 'enum' || field.type === 'Boolean') return undecided();
  if (field.type === 'String' && !stringRules(provider).ordered) return undecided();
  if (cell === null) return null;
  const order = compare(field, cell, value);
  if (operator === 'lt') return order < 0;
  if (operator === 'lte') return order <= 0;
  if (operator === 'gt') return order > 0;
  return order >= 0;
}

/** `contains`, `startsWith`, `endsWith`: SQL `LIKE`, whose wildcards in the value are not decided. */
function likeTruth(field: FieldMeta, operator: string, cell: unknown, value: unknown, provider: string): Truth {
  if (field.type !== 'String' || typeof value !== 'string' || /[%_\\]/.test(value)) return undecided();
  const rules = stringRules(provider);
  if (cell === null) return null;
  if (typeof cell !== 'string') return undecided();
  const fold = (text: string) => (rules.likeIgnoresAsciiCase ? text.replace(/[A-Z]/g, (c) => c.toLowerCase()) : text);
  const [text, part] = [fold(cell), fold(value)];
  if (operator === 'contains') return text.includes(part);
  return operator === 'startsWith' ? text.startsWith(part) : text.endsWith(part);
}

/** How `provider` compares strings; undecided where that is not known. */
function stringRules(provider: string): StringRules {
  return STRING_RULES[provider] ?? undecided();
}

/** The order of a row's value and a filter's value of the same field; undecided across types. */
function compare(field: FieldMeta, cell: unknown, value: unknown): number {
  if (field.kind === 'enum' || field.type === 'String') {
    if (typeof cell !== 'string' || typeof value !== 'string') return undecided();
    // SQLite's BINARY collation compares UTF-8 bytes, which UTF-16 code units do not always follow.
    return Buffer.compare(Buffer.from(cell), Buffer.from(value));
  }
  if (field.type === 'Boolean') {
    if (typeof cell !== 'boolean' || typeof value !== 'boolean') return undecided();
    return Number(cell) - Number(value);
  }
  if (field.type === 'DateTime') return sign(timeOf(cell) - timeOf(value));
  if (field.type === 'BigInt') {
    const [a, b] = [integerOf(cell), integerOf(value)];
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof cell !== 'number' || typeof value !== 'number' || Number.isNaN(cell) || Number.isNaN(value))
    return undecided();
  return sign(cell - value);
}

const sign = (difference: number): number => (difference < 0 ? -1 : difference > 0 ? 1 : 0);

/** A DateTime as milliseconds: a Date, or the ISO text Prisma also takes. */
function timeOf(value: unknown): number {
  const time = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isNaN(time) ? undecided() : time;
}

/** A BigInt column's value, or a filter's integer given as a number. */
function integerOf(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : undecided();
}
