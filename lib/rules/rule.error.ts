import { CrudApiError, type ValidationIssue } from '../errors/crud-api.error.js';

/**
 * A write refused by the application's rules: thrown by a hook (`throw new RuleError('Too short',
 * ['password'])`, the path relative to the data the hook received) or raised with every issue a
 * validator found. REST answers 400 with one error per issue and its `source.pointer`, RPC lists
 * each issue's argument path.
 */
export class RuleError extends CrudApiError {
  constructor(message: string, path: (string | number)[] = [], code = 'invalid') {
    super('validation-failed', message, { issues: [{ path, message, code }] });
  }
}

/** The error of a write with several issues: the first one's message, every issue listed. */
export function validationFailed(issues: ValidationIssue[]): CrudApiError {
  const message = issues.length === 1 ? issues[0]!.message : `${issues.length} validation issues`;
  return new CrudApiError('validation-failed', message, { issues });
}

/** The issues of a rule refusal, their paths placed under `prefix` (the data's path in the arguments). */
export function issuesAt(error: unknown, prefix: (string | number)[]): ValidationIssue[] | undefined {
  if (!(error instanceof CrudApiError) || error.code !== 'validation-failed' || !error.options.issues) return undefined;
  return error.options.issues.map((issue) => ({ ...issue, path: [...prefix, ...issue.path] }));
}
