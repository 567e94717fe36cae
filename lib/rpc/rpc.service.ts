import { Inject, Injectable } from '@nestjs/common';
import { CRUD_API_OPTIONS } from '../crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../crud-api-options.interface.js';
import { CrudApiError } from '../filters/crud-api.error.js';
import { type ApiRequest, queryParameters } from '../http/api-request.js';
import type { ApiResponse } from '../http/api-response.js';
import { isJsonMediaType } from '../http/json-media-type.js';
import type { ModelMeta } from '../metadata/model-meta.types.js';
import { ModelRegistry } from '../metadata/model-registry.js';
import { policiesOf } from '../policies/with-policies.js';
import { PrismaClientResolver } from '../prisma/prisma-client.resolver.js';
import { applyMaxTake } from './apply-max-take.js';
import { validateRpcArgs } from './args/validate-rpc-args.js';
import { parseRpcArgs } from './parse-rpc-args.js';
import { findRpcOperation, type RpcOperation, readsArgsFromQuery } from './rpc-operations.js';
import { serializeRpcResult } from './serialize-rpc-result.js';

/** Runs one Prisma operation per request. Replace it with a provider of your own to customize it. */
@Injectable()
export class RpcService {
  constructor(
    @Inject(CRUD_API_OPTIONS) protected readonly options: ResolvedCrudApiOptions,
    protected readonly registry: ModelRegistry,
    protected readonly clients: PrismaClientResolver,
  ) {}

  async handle(req: ApiRequest, modelName: string, operationName: string): Promise<ApiResponse> {
    const model = this.registry.findByTypeName(modelName);
    if (!model) throw new CrudApiError('unknown-type', `Unknown model "${modelName}".`);
    const operation = this.resolveOperation(model, operationName, req.method);
    this.checkBodyType(req);
    const parsed = parseRpcArgs({ method: req.method, query: queryParameters(req.query), body: req.body }, this.options.limits);
    const client = await this.clients.forRequest(req);
    const origin = readsArgsFromQuery(req.method) ? 'query' : 'body';
    const { registry, options } = this;
    const hiddenFields = policiesOf(client)?.hiddenFields;
    const valid = validateRpcArgs(parsed, { registry, model, operation: operationName, origin, limits: options.limits, hiddenFields });
    const args = applyMaxTake(valid, operation.take, this.options.maxTake, model, this.registry);
    // Both names come from the model metadata and the operation table, never from the URL as such.
    const result: unknown = await client[this.registry.delegateName(model)][operationName](args);
    return { status: operation.successStatus, body: serializeRpcResult(result) };
  }

  /** The operation, if the model offers it and the method is one of its methods. */
  protected resolveOperation(model: ModelMeta, name: string, method: string): RpcOperation {
    const operation = findRpcOperation(name, this.registry.provider);
    if (!operation) throw new CrudApiError('unknown-operation', `Unknown operation "${name}".`);
    if (!this.registry.allowsOperation(model, name)) {
      throw new CrudApiError('unknown-operation', `Operation "${name}" is not available for this model.`);
    }
    if (!operation.methods.includes(method)) {
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
