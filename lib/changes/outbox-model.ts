import type { ModelMeta } from '../metadata/model-meta.types.js';
import { type OwnedField, ownedModelProblems } from '../metadata/owned-model-problems.js';

/** The fields of the outbox model, by type (docs/live.md); `id` is its autoincrement `@id`. */
export const OUTBOX_FIELDS: Readonly<Record<string, OwnedField>> = {
  id: { type: 'Int' },
  model: { type: 'String' },
  operation: { type: 'String' },
  rowKey: { type: 'String' },
  payload: { type: 'Json' },
  createdAt: { type: 'DateTime' },
  status: { type: 'String' },
  attempts: { type: 'Int' },
  nextAttemptAt: { type: 'DateTime' },
  lockedUntil: { type: 'DateTime', optional: true },
  lastError: { type: 'String', optional: true },
  deliveredTo: { type: 'Json' },
};

/** Where an entry stands: waiting (or being delivered), delivered to every webhook, or given up. */
export type OutboxStatus = 'pending' | 'delivered' | 'dead';

/** One row of the outbox model. */
export interface OutboxEntry {
  id: number;
  model: string;
  operation: string;
  rowKey: string;
  /** The change as the webhooks receive it in `data`. */
  payload: unknown;
  createdAt: Date;
  status: OutboxStatus;
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  lastError: string | null;
  /** Names of the webhooks that answered 2xx already (a retry goes to the others only). */
  deliveredTo: unknown;
}

/** What is wrong with the model named by `outbox.model`, one message per problem. */
export function outboxModelProblems(model: ModelMeta | undefined, name: string): string[] {
  const problems = ownedModelProblems('outbox.model', model, name, OUTBOX_FIELDS);
  // Commit order per row is the order of the ids, which the database gives as rows are written.
  if (model && !model.fields.id?.hasDefault)
    problems.push(`"outbox.model": ${name}.id must be @default(autoincrement())`);
  return problems;
}
