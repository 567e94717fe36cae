import { modelMeta } from '../../fixtures/generated/postgresql/crud-api/index.js';
import { createRpcClient } from '../client/create-rpc-client.js';
import { FLUENT_OPERATIONS } from '../client/fluent-call.js';
import type {
  RpcHistoryOperationName,
  RpcOperationName,
  RpcSoftDeleteOperationName,
} from '../client/rpc-client.types.js';
import type { RowOperationName, RuledOperationName } from '../client/rules-data.types.js';
import { CONDITIONAL_WRITES, TAGGED_WRITES } from '../lifecycle/interface-writes.js';
import { DocumentedFields } from '../openapi/documented-fields.js';
import { buildRpcDocument, type RpcDocumentOptions } from '../openapi/rpc-document.js';
import { DEFAULT_LIMITS, DEFAULT_TRANSACTIONS } from '../options/option-table.js';
import { POLICY_OPERATIONS } from '../policies/policy-operations.js';
import { OPERATION_FEATURES } from '../prisma/provider-capabilities.js';
import { OPERATION_ARGS } from '../rpc/args/operation-args.js';
import { ROW_OPERATIONS } from '../rpc/rpc-result-writers.js';
import { ModelRegistry } from './model-registry.js';
import {
  type DataWriteOperationName,
  operationNames,
  PRISMA_OPERATIONS,
  type PrismaOperationName,
} from './prisma-operations.js';
import { REST_OPERATIONS } from './rest-operations.js';

/** True only when A and B are the same type (a compile-time check: `const x: Same<A, B> = true`). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const NAMES = PRISMA_OPERATIONS.map((operation) => operation.name);
const sorted = (names: Iterable<string>) => [...names].sort();

describe('the Prisma operation table', () => {
  it('names each operation once', () => {
    expect(new Set(NAMES).size).toBe(NAMES.length);
  });

  it('gives every operation an argument grammar, and every grammar an operation', () => {
    for (const operation of PRISMA_OPERATIONS) expect(OPERATION_ARGS).toHaveProperty([operation.args]);
    expect(sorted(Object.keys(OPERATION_ARGS))).toEqual(sorted(new Set(PRISMA_OPERATIONS.map((op) => op.args))));
  });

  it('gives every operation a policy client implementation, and nothing else', () => {
    expect(sorted(Object.keys(POLICY_OPERATIONS))).toEqual(sorted(NAMES));
  });

  it('names only database features the provider capabilities know', () => {
    for (const { requires } of PRISMA_OPERATIONS) if (requires) expect(OPERATION_FEATURES).toHaveProperty([requires]);
  });

  it('documents every operation for every model that may call it (OpenAPI)', () => {
    const registry = new ModelRegistry(modelMeta);
    const fields = new DocumentedFields(registry, undefined, undefined, {
      Post: { softDelete: { field: 'deletedAt' }, history: true },
    });
    const options = { rpcPath: 'rpc', limits: DEFAULT_LIMITS, transactions: DEFAULT_TRANSACTIONS };
    const { paths } = buildRpcDocument(fields, options as RpcDocumentOptions, { title: 't', version: '1' });
    for (const operation of PRISMA_OPERATIONS) {
      const item = paths[`/rpc/post/${operation.name}`] as Record<string, unknown>;
      expect(Object.keys(item)).toEqual(operation.methods.map((method) => method.toLowerCase()));
    }
  });

  it('gives the RPC client a method for every operation', () => {
    const client = createRpcClient<never>({ baseUrl: 'http://api.test/rpc' }) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    for (const name of NAMES) expect(typeof client.post[name]).toBe('function');
  });

  it('types the client with every operation (a compile-time check)', () => {
    const all: Same<RpcOperationName | RpcSoftDeleteOperationName | RpcHistoryOperationName, PrismaOperationName> =
      true;
    const ruled: Same<RuledOperationName, DataWriteOperationName> = true;
    expect([all, ruled]).toEqual([true, true]);
  });

  // The sets below were lists of their own before the table: they must be what they were.
  it('derives the reads, row results and fluent calls that were listed by hand', () => {
    expect(sorted(operationNames((op) => op.access === 'read'))).toEqual(
      sorted([
        'findMany',
        'findUnique',
        'findUniqueOrThrow',
        'findFirst',
        'findFirstOrThrow',
        'count',
        'aggregate',
        'groupBy',
        'history',
      ]),
    );
    const rowsOfModelOperations: RowOperationName[] = [
      'findMany',
      'findUnique',
      'findUniqueOrThrow',
      'findFirst',
      'findFirstOrThrow',
      'create',
      'createManyAndReturn',
      'upsert',
      'update',
      'updateManyAndReturn',
      'delete',
    ];
    expect(sorted(ROW_OPERATIONS)).toEqual(
      sorted([...rowsOfModelOperations, 'restore', 'hardDelete', 'restoreVersion']),
    );
    expect(sorted(FLUENT_OPERATIONS)).toEqual(
      sorted([
        'findUnique',
        'findUniqueOrThrow',
        'findFirst',
        'findFirstOrThrow',
        'create',
        'update',
        'upsert',
        'delete',
        'restore',
        'hardDelete',
        'restoreVersion',
      ]),
    );
  });

  it('derives the writes that take If-Match and carry an ETag on both interfaces', () => {
    expect(CONDITIONAL_WRITES.rpc).toEqual(
      new Set(['upsert', 'update', 'delete', 'restore', 'hardDelete', 'restoreVersion']),
    );
    expect(TAGGED_WRITES.rpc).toEqual(new Set(['create', 'upsert', 'update', 'restore', 'restoreVersion']));
    const {
      update,
      delete: remove,
      restore,
      restoreVersion,
      create,
      relationshipAdd,
      relationshipReplace,
      relationshipRemove,
    } = REST_OPERATIONS;
    const relationships = [relationshipAdd, relationshipReplace, relationshipRemove].map((op) => op.name);
    const restores = [restore.name, restoreVersion.name];
    expect(sorted(CONDITIONAL_WRITES.rest)).toEqual(sorted([update.name, remove.name, ...restores, ...relationships]));
    expect(sorted(TAGGED_WRITES.rest)).toEqual(sorted([create.name, update.name, ...restores, ...relationships]));
    expect(relationships).toEqual(['relationship.add', 'relationship.replace', 'relationship.remove']);
  });
});
