import { Inject, Injectable } from '@nestjs/common';

import { deletedRowsClient } from '../data/deleted-rows.js';
import { PrismaClientResolver } from '../data/prisma-client.resolver.js';
import { runInBatchTransaction, runInTransaction } from '../data/run-in-transaction.js';
import { atStepSync } from '../data/step-failure.error.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import { quoteInput } from '../errors/quote-input.js';
import { conditionalWrite } from '../filters/conditional-write.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import type { PrismaOperation } from '../metadata/prisma-operations.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { policiesOf } from '../policies/with-policies.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { type ApiRequest, queryParameters } from '../shared/api-request.js';
import type { ApiResponse } from '../shared/api-response.js';
import { isJsonMediaType } from '../shared/json-media-type.js';
import { inChildSpan } from '../telemetry/child-span.js';
import { SPANS } from '../telemetry/telemetry.constants.js';
import { applyMaxTake } from './apply-max-take.js';
import type { ArgsOrigin } from './args/args.error.js';
import { validateRpcArgs } from './args/validate-rpc-args.js';
import { parseRpcArgs, type RpcArgs } from './parse-rpc-args.js';
import { findRpcOperation, isRpcOperationName, missingOperationMessage, readsArgsFromQuery } from './rpc-operations.js';
import { RpcResultWriters } from './rpc-result-writers.js';
import { rpcSuperJSON } from './rpc-superjson.js';
import { serializeRpcResult } from './serialize-rpc-result.js';
import { parseTransactionBody, type TransactionStep } from './transaction/parse-transaction-body.js';
import { SEQUENTIAL, TRANSACTION_SEGMENT } from './transaction/transaction-route.js';
import { readsDeletedRows } from './with-deleted.js';

/**
 * Runs one Prisma operation per request. Replace it with a provider of your own to customize it.
 *
 * @remarks For subclasses: pass the subclass as the `rpcService` extra of `forRoot`/`forRootAsync`.
 */
@Injectable()
export class RpcService {
  /** Result writers compiled per model and selection shape. */
  private readonly resultWriters: RpcResultWriters;

  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {
    this.resultWriters = new RpcResultWriters(registry);
  }

  async handle(req: ApiRequest, modelName: string, operationName: string): Promise<ApiResponse> {
    if (modelName === TRANSACTION_SEGMENT) this.refuseTransactionRoute(operationName);
    const model = this.registry.findByTypeName(modelName);
    if (!model) throw new CrudApiError('unknown-type', `Unknown model "${modelName}".`);
    // The client tells which models are soft-deleted, and so which operations they have.
    const requested = await this.clients.forRequest(req);
    const operation = this.resolveOperation(model, operationName, req.method, requested);
    this.checkBodyType(req);
    const query = queryParameters(req.query);
    const parsed = inChildSpan(SPANS.parse, () =>
      parseRpcArgs({ method: req.method, query, body: req.body }, this.options.limits),
    );
    const deleted = readsDeletedRows(query, operationName, operation.withDeleted === true);
    const client = deleted ? deletedRowsClient(requested) : requested;
    const origin = readsArgsFromQuery(req.method) ? 'query' : 'body';
    // Validation reads the client's policies (hidden fields), so it follows the client's resolution.
    const call = inChildSpan(SPANS.parse, () =>
      this.prepareCall(client, model, operationName, operation, parsed, origin),
    );
    const conditional = operation.ifMatch === true && req.headers['if-match'] !== undefined;
    const current = conditional ? this.currentRepresentation(client, model, parsed, origin) : undefined;
    // A restore's row is a deleted one: its tag is the one `findUnique` answers with `withDeleted=true`.
    const compared =
      current && operation.writesDeletedRow ? (tx: PrismaClientLike) => current(deletedRowsClient(tx)) : current;
    const result = compared
      ? await conditionalWrite(req, client, this.options.transactions, compared, call)
      : await call(client);
    const writer = this.resultWriters.find(model, operationName, parsed);
    return {
      status: operation.successStatus,
      body: inChildSpan(SPANS.serialize, () => serializeRpcResult(result, rpcSuperJSON, writer)),
    };
  }

  /**
   * What an `If-Match` tag of a write of one row is compared with: the body `findUnique` with the
   * write's `where` (and no selection) answers, read on the write's transaction; `undefined` when
   * it finds no row, which no tag matches.
   */
  protected currentRepresentation(
    client: PrismaClientLike,
    model: ModelMeta,
    parsed: RpcArgs | undefined,
    origin: ArgsOrigin,
  ): (tx: PrismaClientLike) => Promise<unknown> {
    const find = this.prepareCall(
      client,
      model,
      'findUnique',
      this.resolveOperation(model, 'findUnique'),
      { where: parsed?.where },
      origin,
    );
    return async (tx) => {
      const row = await find(tx);
      return row === null ? undefined : serializeRpcResult(row);
    };
  }

  /**
   * `POST {rpcPath}/$transaction/sequential`: the operations of the body, each checked as its own call
   * would be, run one after the other in one transaction; the first failure rolls all back and is
   * answered with its index.
   */
  async transaction(req: ApiRequest): Promise<ApiResponse> {
    this.checkBodyType(req);
    readsDeletedRows(queryParameters(req.query), 'a sequential transaction', false);
    const { limits, transactions } = this.options;
    const steps = inChildSpan(SPANS.parse, () => parseTransactionBody(req.body, limits, transactions.maxOperations));
    const client = await this.clients.forRequest(req);
    const calls = inChildSpan(SPANS.parse, () =>
      steps.map((step, index) => atStepSync(index, () => this.prepareStep(client, step))),
    );
    const { prisma } = this.options;
    // The shared client, unwrapped, returns lazy PrismaPromises: one batch. Policy and per-request
    // clients run checks (or unknown code) between queries: an interactive transaction.
    const results =
      client === prisma && !policiesOf(client)
        ? await runInBatchTransaction(client, transactions, calls)
        : await runInTransaction(client, transactions, calls.length, (tx, index) => calls[index]!(tx));
    return { status: 200, body: inChildSpan(SPANS.serialize, () => serializeRpcResult(results)) };
  }

  /** One transaction step as a call: any operation the model offers, whatever method it takes alone. */
  protected prepareStep(
    client: PrismaClientLike,
    step: TransactionStep,
  ): (client: PrismaClientLike) => Promise<unknown> {
    const model = this.registry.findByModelName(step.model) ?? this.registry.findByTypeName(step.model);
    if (!model) throw new CrudApiError('unknown-type', `Unknown model ${quoteInput(step.model)}.`);
    const operation = this.resolveOperation(model, step.op, undefined, client);
    return this.prepareCall(client, model, step.op, operation, step.args, 'body');
  }

  /** Validates the arguments for the caller and caps `take`; the call then runs on the client given (a transaction's). */
  protected prepareCall(
    client: PrismaClientLike,
    model: ModelMeta,
    operationName: string,
    operation: PrismaOperation,
    parsed: RpcArgs | undefined,
    origin: ArgsOrigin,
  ): (client: PrismaClientLike) => Promise<unknown> {
    const { registry, options } = this;
    const policies = policiesOf(client);
    const valid = validateRpcArgs(parsed, {
      registry,
      model,
      operation: operationName,
      origin,
      limits: options.limits,
      hiddenFields: policies?.hiddenFields,
      fieldModes: policies?.fieldModes,
      reportsInvalidValues: policies?.reportsInvalidValues,
    });
    const args = applyMaxTake(valid, operation.take, options.maxTake, model, registry);
    // Both names come from the model metadata and the operation table, never from the URL as such.
    return (target) => target[registry.delegateName(model)][operationName](args);
  }

  /** `$transaction/sequential` with a method other than POST, or another transaction kind. */
  protected refuseTransactionRoute(kind: string): never {
    if (kind !== SEQUENTIAL)
      throw new CrudApiError('unknown-operation', `Unknown transaction kind ${quoteInput(kind)}; use "${SEQUENTIAL}".`);
    throw new CrudApiError('method-not-allowed', 'A sequential transaction is sent with POST.', {
      headers: { Allow: 'POST' },
    });
  }

  /**
   * The operation, if the model offers it and (when given) the method is one of its methods. A
   * soft-deleted model's own operations (`restore`, `hardDelete`) exist where the `client`'s
   * delegate of the model has them.
   */
  protected resolveOperation(
    model: ModelMeta,
    name: string,
    method?: string,
    client?: PrismaClientLike,
  ): PrismaOperation {
    // An operation the options remove reads the same on every database; then what the database lacks.
    if (isRpcOperationName(name) && !this.registry.allowsOperation(model, name)) {
      throw new CrudApiError('unknown-operation', `Operation "${name}" is not available for this model.`);
    }
    // The module's own operations exist on the models whose policy delegate offers them.
    const delegate = client?.[this.registry.delegateName(model)];
    const operation = findRpcOperation(
      name,
      this.registry.provider,
      (own) => typeof delegate?.[own.name] === 'function',
    );
    if (!operation) throw new CrudApiError('unknown-operation', missingOperationMessage(name, this.registry.provider));
    if (method !== undefined && !operation.methods.includes(method)) {
      const allowed = operation.methods.join(', ');
      throw new CrudApiError('method-not-allowed', `Operation "${name}" accepts ${allowed}, not ${method}.`, {
        headers: { Allow: allowed },
      });
    }
    return operation;
  }

  /** A body the JSON parsers left alone (a form, plain text) must not pass for missing arguments. */
  protected checkBodyType(req: ApiRequest): void {
    if (readsArgsFromQuery(req.method)) return;
    const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
    if (hasBody && !isJsonMediaType(req.headers['content-type'])) {
      throw new CrudApiError('unsupported-media-type', 'The request body must be application/json.');
    }
  }
}
