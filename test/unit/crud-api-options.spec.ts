import { modelMeta as sqliteModelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import { decoratorProblems, mountProblems, resolveCrudApiOptions } from '../../lib/module/resolve-options.js';
import type { CrudApiOptions } from '../../lib/options/crud-api-options.interface.js';
import { defaultsOf } from '../../lib/options/option-spec.js';
import {
  DEFAULT_CACHING,
  DEFAULT_LIMITS,
  DEFAULT_SHUTDOWN,
  DEFAULT_TRANSACTIONS,
  OPTION_TABLE,
} from '../../lib/options/option-table.js';

const modelMeta = { provider: 'sqlite', models: {}, enums: {} } as unknown as CrudApiOptions['modelMeta'];
const MOUNT = { restPath: 'api/rest', rpcPath: 'api/rpc' };
const valid: CrudApiOptions = { endpoint: 'http://localhost:3000/api/rest', modelMeta, prisma: {} as never };
const resolve = (options: object) => resolveCrudApiOptions(options as CrudApiOptions, MOUNT);

describe('resolveCrudApiOptions', () => {
  it('applies the documented defaults and keeps the mount paths', () => {
    expect(resolve(valid)).toMatchObject({
      pageSize: 100,
      restPath: 'api/rest',
      rpcPath: 'api/rpc',
      idDivider: '_',
      bodyLimit: '1mb',
    });
  });

  it('applies every default of the option table', () => {
    expect(resolve(valid)).toMatchObject({
      ...defaultsOf(OPTION_TABLE),
      limits: DEFAULT_LIMITS,
      transactions: DEFAULT_TRANSACTIONS,
      shutdown: DEFAULT_SHUTDOWN,
      caching: DEFAULT_CACHING,
    });
  });

  it('takes an option or sub-option given as undefined as left out', () => {
    const resolved = resolve({ ...valid, pageSize: undefined, limits: { maxFilters: undefined } });
    expect(resolved.pageSize).toBe(100);
    expect(resolved.limits).toEqual(DEFAULT_LIMITS);
  });

  it('accepts Infinity as page size and getPrisma instead of prisma', () => {
    const { prisma: _unused, ...rest } = valid;
    expect(resolve({ ...rest, pageSize: Infinity, getPrisma: () => ({}) as never }).pageSize).toBe(Infinity);
  });

  describe('idempotency', () => {
    const withKeys = { ...valid, modelMeta: sqliteModelMeta as unknown as CrudApiOptions['modelMeta'] };

    it('resolves the model, the defaults, and takes the model out of the exposed schema', () => {
      const resolved = resolve({ ...withKeys, idempotency: { model: 'IdempotencyKey' } });
      expect(resolved.idempotency).toMatchObject({ model: { name: 'IdempotencyKey' }, retention: 86_400_000 });
      expect(resolved.idempotency!.scope({ user: { id: 7 } })).toBe('{"id":7}');
      expect(resolved.idempotency!.scope({})).toBe('null');
      expect(Object.keys(resolved.modelMeta.models)).not.toContain('IdempotencyKey');
      expect(Object.keys(resolve(withKeys).modelMeta.models)).toContain('IdempotencyKey');
    });

    it.each([
      [{ model: 'Nope' }, /"idempotency.model": unknown model "Nope"/],
      [{ model: 'Post' }, /"idempotency.model": Post.fingerprint must be String/],
      [{ model: 'AuditEntry' }, /AuditEntry.id must be String.*AuditEntry.model is required/],
      [{ model: 'IdempotencyKey', retention: 0 }, /"idempotency.retention"/],
      [{ model: 'IdempotencyKey', scope: 'user' }, /"idempotency.scope": scope must be a function/],
      [{ model: 'IdempotencyKey', ttl: 5 }, /"idempotency.ttl": unknown option/],
      [{}, /"idempotency.model"/],
    ])('refuses %j', (idempotency, message) => {
      expect(() => resolve({ ...withKeys, idempotency })).toThrow(message);
    });

    it('refuses options that name the model', () => {
      const idempotency = { model: 'IdempotencyKey' };
      expect(() => resolve({ ...withKeys, idempotency, models: ['IdempotencyKey'] })).toThrow(
        /"models": unknown model/,
      );
      expect(() => resolve({ ...withKeys, idempotency, policies: { IdempotencyKey: { read: true } } })).toThrow(
        /IdempotencyKey/,
      );
    });
  });

  describe('outbox', () => {
    const withOutbox = { ...valid, modelMeta: sqliteModelMeta as unknown as CrudApiOptions['modelMeta'] };
    const hook = { name: 'hook', url: 'https://example.test/hook', secret: 's' };

    it('resolves the model and the documented defaults, and takes the model out of the exposed schema', () => {
      const resolved = resolve({ ...withOutbox, outbox: { model: 'OutboxEntry', webhooks: [hook] } });
      expect(resolved.outbox).toMatchObject({
        model: { name: 'OutboxEntry' },
        webhooks: [hook],
        worker: true,
        pollInterval: 1000,
        batchSize: 50,
        maxAttempts: 10,
        backoffBase: 1000,
        backoffCap: 300_000,
        lease: 60_000,
        timeout: 10_000,
        retention: 604_800_000,
      });
      expect(Object.keys(resolved.modelMeta.models)).not.toContain('OutboxEntry');
    });

    it.each([
      [{ model: 'Nope' }, /"outbox.model": unknown model "Nope"/],
      [{ model: 'AuditEntry' }, /AuditEntry.rowKey must be String/],
      [{ model: 'IdempotencyKey' }, /IdempotencyKey.id must be Int/],
      [{ model: 'OutboxEntry', batchSize: 0 }, /"outbox.batchSize"/],
      [{ model: 'OutboxEntry', webhooks: [{ ...hook, url: 'ftp://x.test' }] }, /"outbox.webhooks.0.url"/],
      [{ model: 'OutboxEntry', webhooks: [{ ...hook, secret: '' }] }, /"outbox.webhooks.0.secret"/],
      [{ model: 'OutboxEntry', webhooks: [hook, hook] }, /two webhooks are named "hook"/],
      [{ model: 'OutboxEntry', webhooks: [{ ...hook, models: ['Nope'] }] }, /names unknown model "Nope"/],
      [{ model: 'OutboxEntry', onDelivered: 'x' }, /"outbox.onDelivered"/],
      [{ model: 'OutboxEntry', every: 5 }, /"outbox.every": unknown option/],
    ])('refuses %j', (outbox, message) => {
      expect(() => resolve({ ...withOutbox, outbox })).toThrow(message);
    });

    it('needs the shared client for its worker', () => {
      const { prisma: _, ...perRequest } = withOutbox;
      const outbox = { model: 'OutboxEntry' };
      expect(() => resolve({ ...perRequest, getPrisma: () => ({}), outbox })).toThrow(/needs the `prisma` option/);
      expect(
        resolve({ ...perRequest, getPrisma: () => ({}), outbox: { ...outbox, worker: false } }).outbox,
      ).toBeDefined();
    });
  });

  it.each([
    [{ endpoint: 'api/rest' }, /"endpoint": endpoint must be an absolute URL/],
    [{ endpoint: undefined }, /"endpoint"/],
    [{ pageSize: 0 }, /"pageSize": pageSize must not be less than 1/],
    [{ pageSize: Number.NaN }, /"pageSize"/],
    [{ modelMeta: undefined }, /"modelMeta": modelMeta must be the object written by nestjs-crud-api-generator/],
    [{ prisma: undefined }, /"prisma": prisma is required unless getPrisma is given/],
    [{ getPrisma: 'client' }, /"getPrisma": getPrisma must be a function/],
    [{ onServerError: 'sentry' }, /"onServerError": onServerError must be a function/],
    [{ idDivider: '' }, /"idDivider"/],
    [{ models: ['Post', 3] }, /"models"/],
    [{ bodyLimit: 'lots' }, /"bodyLimit"/],
    [{ pagesize: 10 }, /"pagesize": unknown option/],
    [{ limits: { maxFilter: 3 } }, /"limits.maxFilter": unknown option/],
    [{ restPath: 'v2/rest' }, /"restPath": give it to forRoot\/forRootAsync directly/],
    [{ caching: { revalidate: 'always' } }, /"caching.revalidate"/],
    [{ caching: { revalidate: 'changes', trustFor: -1 } }, /"caching.trustFor"/],
    [{ caching: { revalidate: 'changes' } }, /"caching.revalidate": 'changes' needs the `live` option/],
    [{ coalesceReads: true }, /"coalesceReads": coalesceReads must be 'request', 'context' or false/],
    [{ coalesceReads: 'always' }, /"coalesceReads"/],
    [{ limits: 5 }, /"limits": nested property limits must be either object or array/],
    [{ transactions: true }, /"transactions"/],
  ])('rejects %j', (override, message) => {
    expect(() => resolve({ ...valid, ...override })).toThrow(message);
  });

  describe('replicas', () => {
    const client = { $queryRawUnsafe: () => undefined, $extends: () => undefined };
    const onPostgres = { ...valid, modelMeta: { ...modelMeta, provider: 'postgresql' } };

    it('applies the documented defaults', () => {
      expect(resolve({ ...onPostgres, replicas: { clients: [client] } }).replicas).toEqual({
        clients: [client],
        maxLag: 1000,
        behind: 'wait',
        maxWait: 200,
        readTimeout: 2000,
        pollInterval: 250,
        header: 'Consistency-Token',
        cookie: false,
      });
    });

    it.each([
      [{ ...valid, replicas: { clients: [client] } }, /PostgreSQL's streaming replicas only, not sqlite/],
      [{ ...onPostgres, replicas: { clients: [] } }, /one client per replica, at least one/],
      [{ ...onPostgres, replicas: { clients: [{}] } }, /replicas.clients must hold Prisma clients/],
      [{ ...onPostgres, replicas: { clients: [client], behind: 'never' } }, /behind must be 'wait' or 'primary'/],
      [{ ...onPostgres, replicas: { clients: [client], header: 'a b' } }, /replicas.header must be an HTTP field name/],
      [{ ...onPostgres, replicas: { clients: [client], cookie: 'a;b' } }, /replicas.cookie must be a cookie name/],
      [{ ...onPostgres, replicas: { clients: [client], maxWait: -1 } }, /"replicas.maxWait"/],
    ])('refuses %#', (options, message) => {
      expect(() => resolve(options)).toThrow(message);
    });

    it("needs the primary's client", () => {
      const { prisma: _, ...perRequest } = onPostgres;
      expect(() => resolve({ ...perRequest, getPrisma: () => ({}), replicas: { clients: [client] } })).toThrow(
        /the `prisma` option is the primary's client/,
      );
    });
  });

  it('revalidates by reading unless told otherwise, and from changes with live queries', () => {
    expect(resolve(valid).caching).toMatchObject({ revalidate: 'read', trustFor: 60_000 });
    const fromChanges = resolve({ ...valid, live: {}, caching: { revalidate: 'changes', trustFor: 5000 } });
    expect(fromChanges.caching).toMatchObject({ revalidate: 'changes', trustFor: 5000 });
  });

  it("coalesces identical requests' reads unless told otherwise", () => {
    expect(resolve(valid).coalesceReads).toBe('request');
    expect(resolve({ ...valid, coalesceReads: 'context' }).coalesceReads).toBe('context');
    expect(resolve({ ...valid, coalesceReads: false }).coalesceReads).toBe(false);
  });

  it('accepts an onServerError function', () => {
    const onServerError = () => undefined;
    expect(resolve({ ...valid, onServerError }).onServerError).toBe(onServerError);
  });

  it('names every bad option at once', () => {
    expect(() => resolve({ ...valid, endpoint: 'x', pageSize: -1 })).toThrow(/"endpoint".*"pageSize"/);
  });
});

describe('resolveCrudApiOptions against the model metadata', () => {
  const withModels = { ...valid, modelMeta: sqliteModelMeta };

  it('accepts Prisma and URL model names and known operations', () => {
    expect(() =>
      resolve({
        ...withModels,
        models: ['Post', 'user'],
        operations: { Tag: { readOnly: true }, post: { exclude: ['deleteMany'] } },
      }),
    ).not.toThrow();
  });

  it.each([
    [{ models: ['Post', 'Postt'] }, /"models": unknown model "Postt"/],
    [{ operations: { Tagg: { readOnly: true } } }, /"operations": unknown model "Tagg"/],
    [{ operations: { Tag: { exclude: ['delet'] } } }, /"operations.Tag.exclude": unknown operation "delet"/],
    [{ operations: { Tag: { readonly: true } } }, /"operations.Tag": unknown key "readonly"/],
    [{ operations: { Tag: { readOnly: 'yes' } } }, /"operations.Tag.readOnly": must be a boolean/],
  ])('rejects %j, naming it', (override, message) => {
    expect(() => resolve({ ...withModels, ...override })).toThrow(message);
  });
});

describe('resolveCrudApiOptions limits', () => {
  it('merges given limits over the defaults', () => {
    expect(resolve({ ...valid, limits: { maxIncludeDepth: 5 } }).limits).toEqual({
      ...DEFAULT_LIMITS,
      maxIncludeDepth: 5,
    });
  });

  it.each([[{ limits: { maxFilters: 0 } }], [{ maxTake: 2.5 }]])('rejects %j', (override) => {
    expect(() => resolve({ ...valid, ...override })).toThrow(/invalid option/);
  });
});

describe('resolveCrudApiOptions transactions', () => {
  it('merges given transaction settings over the defaults', () => {
    expect(resolve(valid).transactions).toEqual(DEFAULT_TRANSACTIONS);
    expect(
      resolve({ ...valid, transactions: { maxOperations: 3, isolationLevel: 'Serializable' } }).transactions,
    ).toEqual({
      ...DEFAULT_TRANSACTIONS,
      maxOperations: 3,
      isolationLevel: 'Serializable',
    });
  });

  it.each([
    [{ transactions: { maxOperations: 0 } }, /"transactions.maxOperations"/],
    [{ transactions: { timeout: 1.5 } }, /"transactions.timeout"/],
    [{ transactions: { isolationLevel: 'Chaos' } }, /"transactions.isolationLevel": isolationLevel must be one of/],
    [{ transactions: { maxOps: 3 } }, /"transactions.maxOps": unknown option/],
  ])('rejects %j, naming it', (override, message) => {
    expect(() => resolve({ ...valid, ...override })).toThrow(message);
  });
});

describe('resolveCrudApiOptions shutdown', () => {
  it('merges the grace period over the default', () => {
    expect(resolve(valid).shutdown).toEqual(DEFAULT_SHUTDOWN);
    expect(resolve({ ...valid, shutdown: { gracePeriod: 0 } }).shutdown).toEqual({ gracePeriod: 0 });
  });

  it.each([
    [{ shutdown: { gracePeriod: -1 } }, /"shutdown.gracePeriod"/],
    [{ shutdown: { gracePeriod: 2.5 } }, /"shutdown.gracePeriod"/],
    [{ shutdown: { grace: 5 } }, /"shutdown.grace": unknown option/],
  ])('rejects %j, naming it', (override, message) => {
    expect(() => resolve({ ...valid, ...override })).toThrow(message);
  });
});

describe('mountProblems', () => {
  it.each([['/api/rest/'], ['a b'], ['']])('rejects the mount path %j', (path) => {
    expect(mountProblems({ restPath: path, rpcPath: 'api/rpc' })).toEqual([
      expect.stringMatching(/^"restPath": must be a path/),
    ]);
  });

  it('accepts nested paths', () => {
    expect(mountProblems({ restPath: 'v2/api/rest', rpcPath: 'model/rpc' })).toEqual([]);
  });
});

describe('decoratorProblems', () => {
  it('tells that decorators come from an options factory too late', () => {
    expect(() => resolve({ ...valid, restDecorators: [] })).toThrow(
      '"restDecorators": give it to forRoot/forRootAsync directly, not from the options factory',
    );
  });

  it('takes arrays of decorators and names each extra that is not one', () => {
    const decorator = () => undefined;
    expect(decoratorProblems({})).toEqual([]);
    expect(decoratorProblems({ restDecorators: [decorator], rpcDecorators: [] })).toEqual([]);
    expect(decoratorProblems({ restDecorators: decorator, rpcDecorators: ['Public'] } as never)).toEqual([
      expect.stringMatching(/^"restDecorators": must be an array of class decorators/),
      expect.stringMatching(/^"rpcDecorators": must be an array of class decorators/),
    ]);
  });
});
