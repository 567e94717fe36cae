import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';

import { LiveQueries } from '../changes/live-queries.js';
import { IdempotentRequests } from '../data/idempotency/idempotent-requests.js';
import { PrismaClientResolver } from '../data/prisma-client.resolver.js';
import { openRateLimitStore } from '../limits/open-store.js';
import { RateLimiter } from '../limits/rate-limiter.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { type ApiRequest, type PlatformRequest, toApiRequest } from '../shared/api-request.js';
import type { ApiResponse, PlatformResponse } from '../shared/api-response.js';
import { prepareEntityTags } from '../shared/http-caching.js';
import type { RequestScope } from '../telemetry/request-telemetry.js';
import type { InterfaceBehaviour, Stage } from './pipeline/exchange.js';
import { requestStages, runStages } from './pipeline/pipeline.js';
import { RequestDrain } from './request-drain.js';

/**
 * Serves the requests of one module instance's controllers: each passes the stages of
 * `requestStages` once (docs/architecture.md), which this instance's services and options back.
 * A failure is answered by the interface's filter (`sendApiError`), which finds the request's call
 * and ends it there.
 */
@Injectable()
export class RequestServer implements OnModuleInit {
  private readonly stages: readonly Stage[];

  constructor(
    @Inject(RequestDrain) drain: RequestDrain,
    @Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions,
    @Inject(IdempotentRequests) idempotent: IdempotentRequests,
    @Inject(LiveQueries) live: LiveQueries,
    @Inject(PrismaClientResolver) clients: PrismaClientResolver,
  ) {
    const { rateLimits } = options;
    const limiter = rateLimits && new RateLimiter(rateLimits, openRateLimitStore(rateLimits, options.prisma));
    this.stages = requestStages({ drain, options, idempotent, live, clients, limiter });
  }

  /** Before the first request: the answers' entity tags (and live queries', and `If-Match`'s) need their hash. */
  onModuleInit(): Promise<void> {
    return prepareEntityTags();
  }

  /** Answers `raw` on `response` with what `run` (the interface's service) answers, as `behaviour` says. */
  async serve(
    raw: PlatformRequest,
    response: PlatformResponse,
    scope: RequestScope,
    run: (request: ApiRequest) => Promise<ApiResponse>,
    contentType: string,
    behaviour: InterfaceBehaviour,
  ): Promise<void> {
    await runStages(this.stages, { raw, response, scope, request: toApiRequest(raw), run, contentType, behaviour });
  }
}
