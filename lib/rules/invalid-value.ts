import type { ValidationIssue } from '../errors/crud-api.error.js';
import { validationFailed } from './rule.error.js';

type Path = (string | number)[];

/**
 * A client's value that does not fit its field (wrong type, unknown enum value, null where none is
 * allowed), left in a write's data by the interface that parsed it in place of the value. The rules
 * report it with every other issue of the write (the validators' and the hooks'), and the data
 * written never holds it: a write with one is refused whole.
 */
export class InvalidValue {
  constructor(
    readonly message: string,
    /** `invalid-type` or `invalid-enum`. */
    readonly code: string,
    readonly where: {
      /** Where in the member the problem is (a list's item, an update operator), below the member. */
      at?: Path;
      /** The JSON:API pointer of the member, when the interface knows it. */
      pointer?: string;
    } = {},
  ) {}

  /** The issue of this value, at `path` (the member's path in the arguments). */
  issue(path: Path): ValidationIssue {
    const { at = [], pointer } = this.where;
    return { path: [...path, ...at], message: this.message, code: this.code, ...(pointer ? { pointer } : {}) };
  }
}

/** The issues of every invalid value within `value` (data objects, nested writes, lists), `path` being its own. */
export function invalidValueIssues(value: unknown, path: Path = []): ValidationIssue[] {
  if (value instanceof InvalidValue) return [value.issue(path)];
  if (Array.isArray(value)) return value.flatMap((item, index) => invalidValueIssues(item, [...path, index]));
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return [];
  return Object.entries(value).flatMap(([key, member]) => invalidValueIssues(member, [...path, key]));
}

/**
 * Refuses arguments holding invalid values when no rules will report them (a client without write
 * rules): every one at once, as the rules would. `path` is where `value` stands in the arguments.
 */
export function throwInvalidValues(value: unknown, path: Path = []): void {
  const issues = invalidValueIssues(value, path);
  if (issues.length > 0) throw validationFailed(issues);
}
