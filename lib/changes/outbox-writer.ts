import { plainRow, rowKey } from '../history/stored-row.js';
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
