import { CrudApiError } from '../errors/crud-api.error.js';

/** `reason` values of policy rejections (RPC `reason`, REST `meta.reason`). */
export const POLICY_REASONS = {
  accessPolicyViolation: 'ACCESS_POLICY_VIOLATION',
  resultNotReadable: 'RESULT_NOT_READABLE',
} as const;

export function policyViolation(message: string): CrudApiError {
  return new CrudApiError('rejected-by-policy', message, { reason: POLICY_REASONS.accessPolicyViolation });
}

export function resultNotReadable(model: string): CrudApiError {
  return new CrudApiError(
    'rejected-by-policy',
    `The ${model} was written, but the access policy does not let you read the result`,
    { reason: POLICY_REASONS.resultNotReadable },
  );
}

export function isResultNotReadable(error: unknown): boolean {
  return error instanceof CrudApiError && error.options.reason === POLICY_REASONS.resultNotReadable;
}

/** Prototype keys are refused wherever they stand: a copy would turn them into a prototype the checks never see. */
export function prototypeKey(path: readonly string[]): CrudApiError {
  return new CrudApiError(
    'invalid-argument',
    `The key "${path.at(-1)}" is not allowed in query arguments (at ${path.join('.')}).`,
  );
}
