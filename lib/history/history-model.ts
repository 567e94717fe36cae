import type { ModelMeta } from '../metadata/model-meta.types.js';
import { type OwnedField, ownedModelProblems } from '../metadata/owned-model-problems.js';
import type { RowVersion } from '../shared/row-version.js';

/** The fields of the history model, by type (docs/history.md); `id` is its autoincrement `@id`. */
export const HISTORY_FIELDS: Readonly<Record<string, OwnedField>> = {
  id: { type: 'Int' },
  model: { type: 'String' },
  rowKey: { type: 'String' },
  operation: { type: 'String' },
  at: { type: 'DateTime' },
  data: { type: 'Json', optional: true },
  before: { type: 'Json', optional: true },
  changed: { type: 'Json' },
  actor: { type: 'String', optional: true },
  requestId: { type: 'String', optional: true },
};

/** One row of the history model: one committed change of one row. */
export interface HistoryEntry {
  id: number;
  model: string;
  /** The row's primary key as one text (`rowKey`). */
  rowKey: string;
  operation: RowVersion['operation'];
  /** When it was recorded, by the database's clock, just before its transaction committed. */
  at: Date;
  /** The row after the change, as JSON keeps it (none for a delete). */
  data: Record<string, unknown> | null;
  /** The row before the change (none for a create). */
  before: Record<string, unknown> | null;
  /** The fields whose value the change set or changed (every field, for a create or delete). */
  changed: string[];
  actor: string | null;
  requestId: string | null;
}

/** What is wrong with the model named by `history.model`, one message per problem. */
export function historyModelProblems(model: ModelMeta | undefined, name: string): string[] {
  const problems = ownedModelProblems('history.model', model, name, HISTORY_FIELDS);
  if (!model) return problems;
  // The order of one row's changes is the order of their ids, given as the rows are written.
  if (!model.fields.id?.hasDefault) problems.push(`"history.model": ${name}.id must be @default(autoincrement())`);
  // The database's clock, not the application's: Prisma fills now() itself, so the default is the database's.
  if (!model.fields.at?.hasDefault)
    problems.push(`"history.model": ${name}.at must have the database's clock as its default (docs/history.md)`);
  return problems;
}
