import { CrudApiError, type ValidationIssue } from '../errors/crud-api.error.js';

/** One problem a hook found: its path relative to the hook's data (`['password']`), its message and code. */
export interface RuleIssue {
  path?: (string | number)[];
  message: string;
  /** A stable code for clients (`too-short`); `invalid` when left out. */
  code?: string;
}

/**
 * A write refused by the application's rules: thrown by a hook (`throw new RuleError('Too short',
 * ['password'])`, the path relative to the data the hook received; or `new RuleError([{ path,
 * message, code }, ...])` for several problems at once) or raised with every issue a validator
 * found. REST answers 400 with one error per issue and its `source.pointer`, RPC lists each issue's
 * argument path.
 */
export class RuleError extends CrudApiError {
  constructor(message: string, path?: (string | number)[], code?: string);
  constructor(issues: readonly RuleIssue[]);
  constructor(first: string | readonly RuleIssue[], path: (string | number)[] = [], code = 'invalid') {
    const issues =
      typeof first === 'string'
        ? [{ path, message: first, code }]
        : first.map((issue) => ({ path: issue.path ?? [], message: issue.message, code: issue.code ?? 'invalid' }));
    if (issues.length === 0) throw new TypeError('RuleError needs at least one issue');
    super('validation-failed', summary(issues), { issues });
  }
}

/** The message of a refusal: its one issue's, or how many there are. */
const summary = (issues: readonly ValidationIssue[]): string =>
  issues.length === 1 ? issues[0]!.message : `${issues.length} validation issues`;

/** The error of a write with one or more issues, every issue listed. */
export function validationFailed(issues: ValidationIssue[]): CrudApiError {
  return new CrudApiError('validation-failed', summary(issues), { issues });
}

/** The issues of a rule refusal, their paths placed under `prefix` (the data's path in the arguments). */
export function issuesAt(error: unknown, prefix: (string | number)[]): ValidationIssue[] | undefined {
  if (!(error instanceof CrudApiError) || error.code !== 'validation-failed' || !error.options.issues) return undefined;
  return error.options.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] }));
}
