import { findRpcOperation, missingOperationMessage, readsArgsFromQuery, RPC_OPERATIONS } from './rpc-operations.js';

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
      ].map((name) => [name, RPC_OPERATIONS.get(name)?.methods]),
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
    const created = [...RPC_OPERATIONS].filter(([, op]) => op.successStatus === 201).map(([name]) => name);
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
});
