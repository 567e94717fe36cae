import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { CrudApiPolicies } from '../../lib/index.js';
import { policiesOf, type PolicyInspector, withPolicies } from '../../lib/policies/with-policies.js';
import type { CrudApiRules } from '../../lib/rules/rules.types.js';

/**
 * Rules with every field mode on the sample schema: a write-only and an internal column, a
 * server-set column and foreign key (so `Post.author` is server-set), required and optional virtual fields.
 */
export const FIELD_MODE_RULES: CrudApiRules = {
  User: {
    fields: { passwordHash: 'writeOnly', role: 'serverSet', createdAt: 'internal' },
    virtual: { password: { type: 'String', required: true }, inviteCode: { type: 'Int' } },
  },
  Post: { fields: { authorId: 'serverSet', views: 'internal' } },
  Comment: { fields: { authorId: { serverSet: (context) => context.user?.id } } },
};

/** What REST and RPC parsers see of a caller of a client with these rules (and policies). */
export function fieldModeInspector(rules: CrudApiRules, policies?: CrudApiPolicies): PolicyInspector {
  return policiesOf(withPolicies({}, { rules, policies, defaultPolicy: 'allow', modelMeta, context: {} }))!;
}
