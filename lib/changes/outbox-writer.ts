import { createHash } from 'node:crypto';

import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { CommitHook } from '../policies/policy.types.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { ChangeEvent } from '../rules/rules.types.js';

type Row = Record<string, unknown>;

/** A change as its webhooks receive it (the `data` of the body): the event without its context. */
export interface OutboxChange {
  model: string;
  operation: ChangeEvent['operation'];
  id: Row;
  after?: Row;
  before?: Row;
}

/** A column's value as JSON carries it: Dates as ISO text, BigInts and Decimals as text, Bytes as base64. */
function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  // Prisma's Decimal (decimal.js): its text keeps every digit.
  if (
    value !== null &&
    typeof value === 'object' &&
    (value as { constructor?: { name?: string } }).constructor?.name === 'Decimal'
  )
    return String(value);
  return value;
}

/** The row's columns as JSON carries them. */
function plainRow(row: Row): Row {
  return Object.fromEntries(Object.entries(row).map(([name, value]) => [name, jsonValue(value)]));
}

/**
 * The change an event stands for, as the outbox keeps it. Its rows come without the columns no
 * client may read (write-only, internal): every change event is made so (`readableRow`).
 */
export function outboxChange(event: ChangeEvent): OutboxChange {
  return {
    model: event.model,
    operation: event.operation,
    id: plainRow(event.id),
    ...(event.after ? { after: plainRow(event.after) } : {}),
    ...(event.before ? { before: plainRow(event.before) } : {}),
  };
}

/** Longest row key kept as it is: longer keys (long text ids) are kept as their hash, which orders as well. */
const ROW_KEY_LENGTH = 128;

/** The row a change is about, as one text: the entries of one row are delivered in their order. */
export function rowKey(id: Row): string {
  const text = JSON.stringify(id);
  return text.length <= ROW_KEY_LENGTH ? text : `sha256:${createHash('sha256').update(text).digest('hex')}`;
}

/**
 * Writes each change of a transaction to the outbox model, in that transaction, just before it
 * commits (`write`, the policy clients' `beforeCommit` hook): the change and the write commit
 * together or not at all. The ids the database gives the rows are their commit order per row,
 * since two transactions that change one row are serialized by its lock.
 */
export class OutboxWriter {
  private readonly delegateName: string;

  constructor(outboxModel: ModelMeta) {
    this.delegateName = toTypeName(outboxModel.name);
  }

  readonly write: CommitHook = async (tx: PrismaClientLike, events: readonly ChangeEvent[]) => {
    if (events.length === 0) return;
    const now = new Date();
    const data = events.map((event) => {
      const change = outboxChange(event);
      return {
        model: event.model,
        operation: event.operation,
        rowKey: rowKey(change.id),
        payload: change,
        createdAt: now,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        deliveredTo: [],
      };
    });
    await tx[this.delegateName].createMany({ data });
  };
}
