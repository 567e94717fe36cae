import { randomUUID } from 'node:crypto';

import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';

import { acceptsEventStream } from '../changes/event-stream.js';
import { LiveQueries } from '../changes/live-queries.js';
import type { RecordedAnswer } from '../data/idempotency/idempotency-records.js';
import { IdempotentRequests } from '../data/idempotency/idempotent-requests.js';
import { PrismaClientResolver } from '../data/prisma-client.resolver.js';
import { CrudApiError } from '../errors/crud-api.error.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { CoalesceReads, ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { type ApiRequest, isReadMethod, type PlatformRequest, toApiRequest } from '../shared/api-request.js';
import {
  type ApiResponse,
  bodyBytes,
  mergeVary,
  nodeResponseOf,
  type PlatformResponse,
  sendApiResponse,
} from '../shared/api-response.js';
import { entityTag, noneMatch, prepareEntityTags } from '../shared/http-caching.js';
import { preferenceValue } from '../shared/prefer.js';
import {
  type ApiInterface,
  beginRequest,
  finishRequest,
  keepCallForFilter,
  type RequestCall,
  type RequestScope,
  runInRequest,
} from '../telemetry/request-telemetry.js';
import { REQUEST_ID_HEADER } from '../telemetry/telemetry.constants.js';
import { CoalescedReads } from './coalesced-reads.js';
import { CONDITIONAL_WRITES, TAGGED_WRITES } from './interface-writes.js';
import { KnownTags } from './known-tags.js';
import { RequestDrain } from './request-drain.js';

/**
 * A write that `If-Match` does not apply to (a create, a write of many rows, atomic operations, a
 * sequential transaction) refuses it rather than writing unconditionally: the client asked for a
 * condition it would not get. Reads ignore it, as RFC 9110 lets them.
 */
function assertConditionApplies(raw: { method: string; headers: Record<string, unknown> }, scope: RequestScope): void {
  if (raw.headers['if-match'] === undefined || isReadMethod(raw.method) || scope.operation === undefined) return;
  if (CONDITIONAL_WRITES[scope.interface].has(scope.operation)) return;
  throw new CrudApiError(
    'invalid-request',
    'If-Match applies to writes of one resource (REST PATCH, PUT, DELETE, restore and relationship changes; RPC update, upsert, delete, restore, hardDelete), not to this request.',
  );
}

/**
 * Request headers that differ from one request to the next whatever it asks (a proxy's or a
 * tracer's id, the connection's own), or that each request's answer applies itself (`If-None-Match`).
 */
const PER_REQUEST_HEADERS = new Set([
  'x-request-id',
  'traceparent',
  'tracestate',
  'if-none-match',
  'connection',
  'keep-alive',
]);

/** The headers a request brought, but the per-request ones, as name and value pairs in their order. */
function sentHeaders(headers: Record<string, string | string[] | undefined>): unknown[] {
  const sent: unknown[] = [];
  for (const name in headers) if (!PER_REQUEST_HEADERS.has(name)) sent.push(name, headers[name]);
  return sent;
}

/**
 * The body of an interface's error answer, for an error that ends a live query's stream (`call`
 * is the request that opened it, for the log and `onServerError`).
 */
export type RenderError = (exception: unknown, request: ApiRequest, call: RequestCall) => Buffer;

/** What a cacheable answer carries besides its body (`caching` option). */
interface Validators {
  cacheControl: string;
  vary: Readonly<Record<ApiInterface, string>>;
  /** With `revalidate: 'changes'`: the tags revalidated, and the request headers each interface's answers vary on. */
  known?: KnownTags;
  varyNames: Readonly<Record<ApiInterface, readonly string[]>>;
}

/**
 * Serves the requests of one module instance's controllers: the one place where a request is
 * admitted (`RequestDrain`), begun (id, span), run, and answered (its `X-Request-Id`, and for a
 * successful GET its `ETag`, `Cache-Control` and `Vary`, or `304 Not Modified` when the client's
 * `If-None-Match` lists the tag). A failure is answered by the interface's filter
 * (`sendApiError`), which finds the request's call and ends it there.
 */
@Injectable()
export class RequestServer implements OnModuleInit {
  private readonly validators?: Validators;
  private readonly mergedVary = new Map<string, string>();
  private readonly coalesced = new CoalescedReads();
  private readonly coalescing: CoalesceReads;

  constructor(
    @Inject(RequestDrain) private readonly drain: RequestDrain,
    @Inject(CRUD_API_OPTIONS) { caching, coalesceReads }: ResolvedCrudApiOptions,
    @Inject(IdempotentRequests) private readonly idempotency: IdempotentRequests,
    @Inject(LiveQueries) private readonly live: LiveQueries,
    @Inject(PrismaClientResolver) private readonly clients: PrismaClientResolver,
  ) {
    this.coalescing = coalesceReads;
    if (caching) {
      const vary = mergeVary(caching.vary.join(','));
      // The REST answers depend on Accept (negotiation) and Prefer (counts) as well.
      const both = { rest: mergeVary('Accept, Prefer', vary), rpc: vary };
      this.validators = {
        cacheControl: caching.cacheControl,
        vary: both,
        // `Vary: *`: any header may change an answer, no two requests are known to be the same.
        known: caching.revalidate === 'changes' && vary !== '*' ? new KnownTags(live, caching.trustFor) : undefined,
        varyNames: {
          rest: both.rest.toLowerCase().split(', '),
          rpc: both.rpc.toLowerCase().split(', '),
        },
      };
    }
  }

  /** Before the first request: the answers' entity tags (and live queries', and `If-Match`'s) need their hash. */
  onModuleInit(): Promise<void> {
    return prepareEntityTags();
  }

  async serve(
    raw: PlatformRequest,
    response: PlatformResponse,
    scope: RequestScope,
    run: (request: ApiRequest) => Promise<ApiResponse>,
    contentType: string,
    renderError?: RenderError,
  ): Promise<void> {
    if (renderError && this.live.settings && raw.method === 'GET' && acceptsEventStream(raw.headers.accept)) {
      return this.stream(raw, response, scope, run, contentType, renderError);
    }
    const admitted = this.drain.admit(response);
    const call = beginRequest(raw, scope);
    let written: Set<string> | undefined;
    try {
      assertConditionApplies(raw, scope);
      const request = toApiRequest(raw);
      // Live queries learn of a write from the models it reached (when no change is captured).
      if (this.live.settings && !isReadMethod(raw.method)) written = this.clients.recordModels(request);
      const key = this.idempotency.keyOf(request);
      const answer = () => this.answer(request, scope, run);
      const sent = await runInRequest(call, () =>
        key === undefined ? answer() : this.idempotency.run(request, key, answer),
      );
      sendApiResponse(response, sent, contentType, { [REQUEST_ID_HEADER]: call.id }, sent.payload);
      finishRequest(call, sent.status);
    } catch (error) {
      keepCallForFilter(raw, call);
      throw error;
    } finally {
      // Also after a failure: an unreadable result, for one, is answered 403 with its write committed.
      if (written?.size) this.live.committed([...written]);
      this.drain.release(admitted);
    }
  }

  /**
   * Serves a live query (docs/live.md): counts it against the limits, runs it as the GET it
   * streams (negotiated as the interface's own media type) with a client that notes the models
   * it reads, and hands its stream to `LiveQueries`, which runs it again after relevant commits.
   * A query that cannot start answers as the GET would have failed.
   */
  private async stream(
    raw: PlatformRequest,
    response: PlatformResponse,
    scope: RequestScope,
    run: (request: ApiRequest) => Promise<ApiResponse>,
    contentType: string,
    renderError: RenderError,
  ): Promise<void> {
    const { live } = this;
    const admitted = this.drain.admit(response);
    const call = beginRequest(raw, scope);
    const caller = live.settings!.caller(raw);
    const connection: object = raw.socket ?? raw;
    let reserved = false;
    try {
      live.reserve(caller, connection);
      reserved = true;
      const request = { ...toApiRequest(raw), headers: { ...raw.headers, accept: contentType } };
      const reads = this.clients.recordModels(request)!;
      const query = `${scope.interface} ${request.path}?${request.query}\n${raw.headers.prefer ?? ''}\n`;
      // A context JSON cannot write shares with no other.
      const alone = `request ${randomUUID()}`;
      const shareKey = async () => query + ((await this.clients.shareKeyOf(request)) ?? alone);
      const once = async () => bodyBytes((await run(request)).body) ?? Buffer.alloc(0);
      const subscription = {
        shareKey: await shareKey(),
        reads,
        // Each re-run asks the application for the caller's client and context anew.
        judge: () => {
          this.clients.forget(request);
          return shareKey();
        },
        run: once,
        renderError: (error: unknown) => renderError(error, request, call),
      };
      const first = await runInRequest(call, once);
      live.open({ ...subscription, caller, connection }, nodeResponseOf(response), {
        first,
        lastEventId: [raw.headers['last-event-id']].flat()[0],
        headers: { [REQUEST_ID_HEADER]: call.id },
      });
      reserved = false;
      finishRequest(call, 200);
    } catch (error) {
      if (reserved) live.release(caller, connection);
      keepCallForFilter(raw, call);
      throw error;
    } finally {
      this.drain.release(admitted);
    }
  }

  /** The answer as it is sent: the service's, with its validators, and its body's bytes. */
  private async answer(
    request: ApiRequest,
    scope: RequestScope,
    run: (request: ApiRequest) => Promise<ApiResponse>,
  ): Promise<RecordedAnswer> {
    const known = this.validators?.known;
    const ifNoneMatch = request.raw.headers['if-none-match'];
    if (known && ifNoneMatch !== undefined && request.raw.method === 'GET')
      return this.revalidated(request, scope, run, known, ifNoneMatch);
    const once = async () => {
      const answer = await run(request);
      return { answer, payload: bodyBytes(answer.body) };
    };
    const key = this.coalescing && request.raw.method === 'GET' ? await this.readKey(request, scope) : undefined;
    const { answer, payload } = key === undefined ? await once() : await this.coalesced.run(key, once);
    return this.validated(request.raw, answer, payload, scope);
  }

  /**
   * What a GET's answer depends on, for `coalesceReads`: under `'request'` interface, path and
   * query, every header the request brought (but those unique to each request), its client
   * address, client and policy context; under `'context'` the `contextKey`. None for a request with
   * a body, or a context JSON cannot write: it reads alone.
   */
  private async readKey(request: ApiRequest, scope: RequestScope): Promise<string | undefined> {
    const { headers } = request.raw;
    if (headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) !== 0) return undefined;
    const origin = await this.clients.shareKeyOf(request);
    if (origin === undefined) return undefined;
    if (this.coalescing === 'context') return this.contextKey(request, scope, origin);
    const sent = [sentHeaders(headers), request.raw.socket?.remoteAddress ?? null];
    return JSON.stringify([scope.interface, request.path, request.query, sent, origin]);
  }

  /**
   * The key of the requests whose answers are the same as long as the data is (revalidation from
   * changes, `coalesceReads: 'context'`): interface, path and query, the headers the services read
   * (`Accept`, `Content-Type`, `Prefer`) and the answers vary on, and `origin` (`shareKeyOf`).
   */
  private contextKey(request: ApiRequest, scope: RequestScope, origin: string): string {
    const { headers } = request.raw;
    const read = [headers.accept, headers['content-type'], headers.prefer].map((value) => value ?? null);
    const varied = this.validators?.varyNames[scope.interface].map((name) => headers[name] ?? null) ?? null;
    return JSON.stringify([scope.interface, request.path, request.query, read, varied, origin]);
  }

  /**
   * A conditional GET under `revalidate: 'changes'`: `304` from the tag remembered for the same
   * request while nothing its read reached has changed since, without running it; otherwise run,
   * with the models it reaches noted, and its tag remembered.
   */
  private async revalidated(
    request: ApiRequest,
    scope: RequestScope,
    run: (request: ApiRequest) => Promise<ApiResponse>,
    known: KnownTags,
    ifNoneMatch: string | string[],
  ): Promise<RecordedAnswer> {
    const reads = this.clients.recordModels(request)!;
    const { raw } = request;
    const origin = await this.clients.shareKeyOf(request);
    const key = origin === undefined ? undefined : this.contextKey(request, scope, origin);
    const headers = key === undefined ? undefined : known.notModified(key, ifNoneMatch);
    if (headers) return { status: 304, headers: { ...headers } };
    const since = this.live.now;
    const answer = await run(request);
    const sent = this.validated(raw, answer, bodyBytes(answer.body), scope);
    if (key !== undefined && (sent.status === 200 || sent.status === 304)) {
      const { ETag, 'Cache-Control': cacheControl, Vary } = sent.headers!;
      known.remember(key, { ETag: ETag!, 'Cache-Control': cacheControl!, Vary: Vary! }, reads, since);
    }
    return sent;
  }

  /**
   * A successful read's answer with its validators, or the 304 that replaces it (RFC 9110 §15.4.5:
   * the same `ETag`, `Cache-Control` and `Vary`, no body); a write's as `written` says. Any other
   * answer as it is.
   */
  private validated(
    raw: { method: string; headers: Record<string, string | string[] | undefined> },
    { status, headers }: ApiResponse,
    payload: Buffer | undefined,
    scope: RequestScope,
  ): RecordedAnswer {
    const { validators } = this;
    if (payload === undefined) return { status, headers };
    if (!isReadMethod(raw.method)) return this.written(raw, status, headers, payload, scope);
    if (!validators || status !== 200) return { status, headers, payload };
    const validating = {
      ETag: entityTag(payload),
      'Cache-Control': validators.cacheControl,
      Vary: this.varyOf(headers?.Vary, scope.interface),
    };
    if (!noneMatch(raw.headers['if-none-match'], validating.ETag)) return { status: 304, headers: validating };
    return { status, headers: headers === undefined ? validating : { ...headers, ...validating }, payload };
  }

  /**
   * A write's answer: with the `ETag` of what it wrote (a read of it answers that tag), and for a
   * REST write, shaped by `Prefer: return=minimal` (204 with no body, `Location` and `ETag` kept)
   * or `return=representation` (the document, as without a preference), which
   * `Preference-Applied` confirms.
   */
  private written(
    raw: { headers: Record<string, string | string[] | undefined> },
    status: number,
    own: Record<string, string> | undefined,
    payload: Buffer,
    scope: RequestScope,
  ): RecordedAnswer {
    const tagged = (status === 200 || status === 201) && TAGGED_WRITES[scope.interface].has(scope.operation ?? '');
    if (!tagged) return { status, headers: own, payload };
    const headers: Record<string, string> = { ...own };
    if (this.validators) headers.ETag = entityTag(payload);
    const preference = scope.interface === 'rest' ? preferenceValue(raw.headers.prefer, 'return') : undefined;
    if (preference === 'minimal') {
      headers['Preference-Applied'] = 'return=minimal';
      return { status: 204, headers };
    }
    if (preference === 'representation') headers['Preference-Applied'] = 'return=representation';
    return { status, headers, payload };
  }

  /** The answer's own `Vary` (a collection's `Prefer`) merged with the interface's, each merge made once. */
  private varyOf(own: string | undefined, kind: ApiInterface): string {
    const base = this.validators!.vary[kind];
    if (own === undefined) return base;
    const key = `${kind}\n${own}`;
    let merged = this.mergedVary.get(key);
    if (merged === undefined) {
      merged = mergeVary(own, base);
      // The module's answers name few distinct values; a bound keeps an application's own out of reach.
      if (this.mergedVary.size < 64) this.mergedVary.set(key, merged);
    }
    return merged;
  }
}
