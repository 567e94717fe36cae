import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { DataModelMeta } from '../metadata/model-meta.types.js';
import { withPolicies } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { CrudApiRules } from '../rules/rules.types.js';
import { deletedRowsClient, softDeletedOn, switchOn } from './deleted-rows.js';

/** A policy client over a stand-in: no query runs, only the delegates are looked at. */
const policyClient = (rules: CrudApiRules) =>
  withPolicies({ post: {}, user: {} } as object, {
    rules,
    modelMeta: modelMeta as DataModelMeta,
    context: {},
  }) as PrismaClientLike;

const refusal = (parameter: string) =>
  expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter } } });

describe('switchOn', () => {
  it('is off when absent and on for "true" only', () => {
    expect(switchOn('withDeleted', undefined)).toBe(false);
    expect(switchOn('withDeleted', 'true')).toBe(true);
    for (const value of ['TRUE', 'yes', '1', 'false', '', ['true', 'true']])
      expect(() => switchOn('hardDelete', value)).toThrow(refusal('hardDelete'));
  });
});

describe('deletedRowsClient and softDeletedOn', () => {
  const softDeleted = policyClient({ Post: { softDelete: { field: 'deletedAt' } } });

  it('gives a policy client with soft-deleted models the client that reads deleted rows too', () => {
    const reading = deletedRowsClient(softDeleted);
    expect(reading).not.toBe(softDeleted);
    expect(softDeletedOn(reading, 'post')).toBe(true);
  });

  it('refuses a client without soft-deleted models with 400', () => {
    expect(() => deletedRowsClient(policyClient({ Post: {} }))).toThrow(refusal('withDeleted'));
    expect(() => deletedRowsClient({ post: {} } as unknown as PrismaClientLike)).toThrow(refusal('withDeleted'));
  });

  it("tells a soft-deleted model by its delegate's own operations", () => {
    expect(softDeletedOn(softDeleted, 'post')).toBe(true);
    expect(softDeletedOn(softDeleted, 'user')).toBe(false);
    expect(softDeletedOn({ post: { restore: 'not an operation' } } as unknown as PrismaClientLike, 'post')).toBe(false);
  });
});
