import { operationNames, PRISMA_OPERATIONS, prismaOperation } from '../metadata/prisma-operations.js';
import { findRpcOperation, isRpcOperationName, missingOperationMessage, readsArgsFromQuery } from './rpc-operations.js';

describe('RPC operation table', () => {
  it('offers the thirteen operations of the specification with its methods', () => {
    const methods = Object.fromEntries(
      [
        'findMany',
        'findUnique',
        'findFirst',
        'count',
        'aggregate',
        'groupBy',
        'create',
        'createMany',
        'update',
        'updateMany',
        'upsert',
        'delete',
        'deleteMany',
      ].map((name) => [name, prismaOperation(name)?.methods]),
    );
    expect(methods).toEqual({
      findMany: ['GET'],
      findUnique: ['GET'],
      findFirst: ['GET'],
      count: ['GET'],
      aggregate: ['GET'],
      groupBy: ['GET'],
      create: ['POST'],
      createMany: ['POST'],
      update: ['PATCH', 'PUT'],
      updateMany: ['PATCH', 'PUT'],
      upsert: ['POST'],
      delete: ['DELETE'],
      deleteMany: ['DELETE'],
    });
  });

  it('answers 201 for the creating operations only', () => {
    const created = PRISMA_OPERATIONS.filter((op) => op.successStatus === 201).map((op) => op.name);
    expect(created).toEqual(['create', 'createMany', 'createManyAndReturn']);
  });

  it.each(['__proto__', 'constructor', 'toString', '$queryRaw', '$executeRaw', '$transaction', 'hasOwnProperty'])(
    'knows nothing called %s',
    (name) => {
      expect(findRpcOperation(name, 'sqlite')).toBeUndefined();
    },
  );

  it('offers the *AndReturn operations only where Prisma implements them', () => {
    expect(findRpcOperation('createManyAndReturn', 'postgresql')).toBeDefined();
    expect(findRpcOperation('updateManyAndReturn', 'sqlite')).toBeDefined();
    expect(findRpcOperation('createManyAndReturn', 'mysql')).toBeUndefined();
    expect(findRpcOperation('updateManyAndReturn', 'sqlserver')).toBeUndefined();
    expect(findRpcOperation('createMany', 'mysql')).toBeDefined();
  });

  it('says why an operation is missing: an unknown name, or the database feature it lacks', () => {
    expect(missingOperationMessage('nope', 'mysql')).toBe('Unknown operation "nope".');
    expect(missingOperationMessage('updateManyAndReturn', 'mysql')).toMatch(
      /^"updateManyAndReturn" is not available on mysql: the database has no RETURNING clause/,
    );
  });

  it('reads GET and DELETE arguments from the query string', () => {
    expect(['GET', 'DELETE', 'POST', 'PATCH', 'PUT'].map(readsArgsFromQuery)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('offers restore (POST) and hardDelete (DELETE) on soft-deleted models only', () => {
    expect(findRpcOperation('restore', 'sqlite')).toBeUndefined();
    expect(findRpcOperation('hardDelete', 'postgresql')).toBeUndefined();
    expect(findRpcOperation('restore', 'sqlite', () => true)?.methods).toEqual(['POST']);
    expect(findRpcOperation('hardDelete', 'mysql', () => true)?.methods).toEqual(['DELETE']);
    expect(missingOperationMessage('restore', 'sqlite')).toBe('Unknown operation "restore".');
    expect(['restore', 'hardDelete', 'findMany', '$queryRaw'].map(isRpcOperationName)).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('offers history (GET) and restoreVersion (POST) on models with history only', () => {
    expect(findRpcOperation('history', 'sqlite')).toBeUndefined();
    expect(findRpcOperation('restoreVersion', 'postgresql', (op) => op.name === 'restore')).toBeUndefined();
    expect(findRpcOperation('history', 'mysql', () => true)?.methods).toEqual(['GET']);
    expect(findRpcOperation('restoreVersion', 'sqlite', () => true)).toMatchObject({
      methods: ['POST'],
      ifMatch: true,
    });
  });

  it('takes withDeleted on the reads and hardDelete, and compares a restore with the deleted row', () => {
    const taking = PRISMA_OPERATIONS.filter((op) => op.withDeleted && !op.softDeleteOnly).map((op) => op.name);
    // Exactly Prisma's reads the `operations` option's readOnly keeps (a row's history is its own read).
    expect(taking).toEqual([...operationNames((op) => op.access === 'read' && !op.historyOnly)]);
    expect(findRpcOperation('hardDelete', 'sqlite', () => true)?.withDeleted).toBe(true);
    expect(findRpcOperation('restore', 'sqlite', () => true)).toMatchObject({ writesDeletedRow: true });
    expect(findRpcOperation('restore', 'sqlite', () => true)?.withDeleted).toBeUndefined();
  });
});
