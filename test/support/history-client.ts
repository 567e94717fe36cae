import { type CrudApiRules, withPolicies, type WithPoliciesOptions } from '../../lib/index.js';
import type { TestDatabase } from './test-database.js';

/**
 * The policy client of hand-written code over a test database, recording the history of the models
 * `rules` name with `history: true` in the fixture's HistoryEntry model.
 */
export function historyClient(db: TestDatabase, rules: CrudApiRules, options: Partial<WithPoliciesOptions> = {}): any {
  const { modelMeta } = db;
  return withPolicies(db.prisma, {
    rules,
    modelMeta,
    history: { model: modelMeta.models.HistoryEntry! },
    context: {},
    ...options,
  });
}
