import { atStepSync } from '../../data/step-failure.error.js';
import { CrudApiError } from '../../errors/crud-api.error.js';
import { quoteInput } from '../../errors/quote-input.js';
import type { ArgumentLimits } from '../args/argument-limits.js';
import { isPlainObject, parseRpcArgs, type RpcArgs } from '../parse-rpc-args.js';

/** One operation of a sequential transaction, its arguments restored from superjson but not yet validated. */
export interface TransactionStep {
  model: string;
  op: string;
  args: RpcArgs | undefined;
}

const STEP_MEMBERS: ReadonlySet<string> = new Set(['model', 'op', 'args', 'meta']);
const INDEX = /^(0|[1-9]\d*)$/;

function invalid(message: string, pointer = ''): CrudApiError {
  return new CrudApiError('invalid-payload', message, { source: { pointer } });
}

/** Limits for a value `levels` containers above the arguments, with room for the members around them. */
function around(limits: ArgumentLimits, levels: number, copies = 1): ArgumentLimits {
  return {
    maxArgumentDepth: limits.maxArgumentDepth + levels,
    maxArgumentNodes: (limits.maxArgumentNodes + STEP_MEMBERS.size) * copies,
  };
}

/**
 * The operations of a body that superjson-serialized the whole array: `{ "0": …, "1": …, meta }` (what
 * ZenStack's TanStack Query hooks send when an argument has a Date, Decimal...) or `{ data: […], meta }`.
 */
function envelopeItems(body: Record<string, unknown>, limits: ArgumentLimits, maxOperations: number): unknown[] {
  const { data, meta, ...indexed } = body;
  if (data !== undefined && Object.keys(indexed).length > 0)
    throw invalid('The request body mixes "data" with indexed operations.');
  if (data !== undefined && !Array.isArray(data)) throw invalid('"data" must be an array of operations.', '/data');
  const items: object = data === undefined ? indexed : data;
  const keys = Object.keys(items);
  const stray = keys.find((key, position) => !INDEX.test(key) || Number(key) !== position);
  if (stray !== undefined)
    throw invalid(
      `The request body may not have the member ${quoteInput(stray)}; send an array of operations.`,
      `/${stray}`,
    );
  assertCount(keys.length, maxOperations);
  const restored = parseRpcArgs(
    { method: 'POST', query: {}, body: { ...items, ...(meta === undefined ? {} : { meta }) } },
    around(limits, 2, keys.length),
  );
  return keys.map((key) => restored?.[key]);
}

function assertCount(count: number, maxOperations: number): void {
  if (count === 0) throw invalid('A transaction needs at least one operation.');
  if (count > maxOperations)
    throw invalid(`A transaction may have at most ${maxOperations} operations (limit transactions.maxOperations).`);
}

/** One `{ model, op, args }` item; a `meta` beside them restores the item's superjson values. */
function parseStep(item: unknown, index: number, limits: ArgumentLimits): TransactionStep {
  if (!isPlainObject(item)) throw invalid('An operation must be an object { model, op, args }.', `/${index}`);
  const stray = Object.keys(item).find((member) => !STEP_MEMBERS.has(member));
  if (stray !== undefined)
    throw invalid(
      `An operation may not have the member ${quoteInput(stray)}; allowed: model, op, args.`,
      `/${index}/${stray}`,
    );
  const step =
    item.meta === undefined ? item : parseRpcArgs({ method: 'POST', query: {}, body: item }, around(limits, 1))!;
  if (typeof step.model !== 'string' || !step.model) throw invalid('"model" must be a model name.', `/${index}/model`);
  if (typeof step.op !== 'string' || !step.op) throw invalid('"op" must be an operation name.', `/${index}/op`);
  if (step.args !== undefined && step.args !== null && !isPlainObject(step.args)) {
    throw invalid('"args" must be an object of query arguments.', `/${index}/args`);
  }
  // The arguments as a single call's body: the same limits, prototype keys refused, their own `meta` applied.
  const args =
    step.args === undefined || step.args === null
      ? undefined
      : parseRpcArgs({ method: 'POST', query: {}, body: step.args }, limits);
  return { model: step.model, op: step.op, args };
}

/**
 * The steps of a `$transaction/sequential` body, in ZenStack's wire forms: an array of
 * `{ model, op, args }` (each `args` with its own superjson `meta`, as in a single call's body), or
 * the whole array superjson-serialized. A problem with one operation is thrown as its `StepFailure`.
 */
export function parseTransactionBody(body: unknown, limits: ArgumentLimits, maxOperations: number): TransactionStep[] {
  if (!Array.isArray(body) && !isPlainObject(body))
    throw invalid('The request body must be an array of operations { model, op, args }.');
  if (Array.isArray(body)) assertCount(body.length, maxOperations);
  const items = Array.isArray(body) ? body : envelopeItems(body, limits, maxOperations);
  return items.map((item, index) => atStepSync(index, () => parseStep(item, index, limits)));
}
