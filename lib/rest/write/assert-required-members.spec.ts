import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { FIELD_MODE_RULES, fieldModeInspector } from '../../../test/support/field-mode-fixtures.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import { VisibleFields } from '../visible-fields.js';
import { assertRequiredMembers } from './assert-required-members.js';

const registry = new ModelRegistry(modelMeta);
const user = registry.findByModelName('User')!;
const post = registry.findByModelName('Post')!;
const like = registry.findByModelName('Like')!;

const check = (model: typeof user, data: Record<string, unknown>, policies?: PolicyInspector) => () =>
  assertRequiredMembers(new VisibleFields(registry, policies), model, data);
const required = (message: string, pointer: string) =>
  expect.objectContaining({ code: 'invalid-payload', message, options: { source: { pointer } } });

describe('assertRequiredMembers', () => {
  it('names the missing attribute, the relationship behind a missing key, and the missing id', () => {
    expect(check(user, { name: 'A' })).toThrow(required('Attribute "email" is required.', '/data/attributes/email'));
    expect(check(post, { title: 't' })).toThrow(
      required('Relationship "author" is required.', '/data/relationships/author'),
    );
    expect(check(like, { userId: 1 })).toThrow(
      required('Relationship "post" is required.', '/data/relationships/post'),
    );
    expect(check(user, { email: 'a', name: 'A' })).not.toThrow();
  });

  it('requires neither server-set or internal columns nor relationships through a server-set key', () => {
    const rules = { User: { fields: { email: 'serverSet', name: 'internal' } }, Post: FIELD_MODE_RULES.Post! } as const;
    const modes = fieldModeInspector(rules);
    expect(check(user, {}, modes)).not.toThrow();
    expect(check(post, { title: 't' }, modes)).not.toThrow();
  });

  it('requires write-only columns and required virtual fields', () => {
    const modes = fieldModeInspector({
      User: { fields: { email: 'writeOnly' }, virtual: FIELD_MODE_RULES.User!.virtual },
    });
    expect(check(user, { name: 'A', password: 'p' }, modes)).toThrow(
      required('Attribute "email" is required.', '/data/attributes/email'),
    );
    expect(check(user, { name: 'A', email: 'e' }, modes)).toThrow(
      required('Attribute "password" is required.', '/data/attributes/password'),
    );
    expect(check(user, { name: 'A', email: 'e', password: 'p' }, modes)).not.toThrow();
  });

  it('never names a field the caller cannot see', () => {
    const hiding = fieldModeInspector(
      {},
      { User: { fields: { read: { email: false } } }, Post: { fields: { read: { author: false } } } },
    );
    expect(check(user, { name: 'A' }, hiding)).not.toThrow();
    expect(check(user, {}, hiding)).toThrow(required('Attribute "name" is required.', '/data/attributes/name'));
    expect(check(post, { title: 't' }, hiding)).not.toThrow();
  });
});
