import { atStepSync } from '../../data/step-failure.error.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import { assertJsonDepth } from '../../shared/json-depth.js';
import { jsonPointer } from '../../shared/json-pointer.js';
import { findPrototypeKey } from '../../shared/prototype-keys.js';
import { assertDocumentObject } from '../write/document-members.js';

export type AtomicOp = 'add' | 'update' | 'remove';

/** One member of `atomic:operations`, its shape checked; identifiers and data are read when it runs. */
export interface AtomicOperation {
  op: AtomicOp;
  ref?: Record<string, unknown>;
  data?: unknown;
}

const OPS: ReadonlySet<string> = new Set(['add', 'update', 'remove']);

function invalid(message: string, path: readonly (string | number)[]): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer: jsonPointer(path) } });
}

/** The shape of one operation; pointers are relative to it (the failure carries its index). */
function parseOperation(value: unknown): AtomicOperation {
  assertDocumentObject(value, 'operation', 'An operation', []);
  if (typeof value.op !== 'string' || !OPS.has(value.op))
    throw invalid('"op" must be "add", "update" or "remove".', ['op']);
  if (value.href !== undefined) throw invalid('"href" is not supported; use "ref".', ['href']);
  if (value.ref !== undefined) {
    assertDocumentObject(value.ref, 'ref', '"ref"', ['ref']);
    if (typeof value.ref.type !== 'string')
      throw invalid('"ref.type" is required and must be a string.', ['ref', 'type']);
    if (value.ref.relationship !== undefined && typeof value.ref.relationship !== 'string')
      throw invalid('"ref.relationship" must be a string.', ['ref', 'relationship']);
  }
  const op = value.op as AtomicOp;
  if (op === 'remove' && !value.ref) throw invalid('"remove" needs "ref".', []);
  if (op !== 'remove' && !('data' in value)) throw invalid(`"${op}" needs "data".`, []);
  if (op === 'add' && value.ref && value.ref.relationship === undefined)
    throw invalid('Adding a resource takes "data" only, no "ref".', ['ref']);
  return { op, ...(value.ref ? { ref: value.ref } : {}), ...('data' in value ? { data: value.data } : {}) };
}

/**
 * The operations of an atomic request document, in order: the body is checked whole first (depth,
 * prototype keys), then its members, the operation count (`transactions.maxOperations`) and each
 * operation's shape; a problem with one operation is thrown as its `StepFailure`.
 */
export function parseAtomicDocument(body: unknown, maxJsonDepth: number, maxOperations: number): AtomicOperation[] {
  assertJsonDepth(body, maxJsonDepth);
  const prototypePath = findPrototypeKey(body);
  if (prototypePath)
    throw invalid(`The key ${quoteInput(prototypePath.at(-1))} is not allowed in a request body.`, prototypePath);
  assertDocumentObject(body, 'atomicDocument', 'An atomic request document', []);
  const operations = body['atomic:operations'];
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalid('"atomic:operations" must be a non-empty array of operations.', ['atomic:operations']);
  }
  if (operations.length > maxOperations) {
    throw invalid(
      `An atomic request may have at most ${maxOperations} operations (limit transactions.maxOperations).`,
      ['atomic:operations'],
    );
  }
  return operations.map((operation, index) => atStepSync(index, () => parseOperation(operation)));
}
