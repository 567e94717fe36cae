import type { RecordedAnswer } from '../../data/idempotency/idempotency-records.js';
import type { CostedStep } from '../../limits/request-cost.js';
import type { ApiRequest, PlatformRequest } from '../../shared/api-request.js';
import type { ApiResponse, PlatformResponse } from '../../shared/api-response.js';
import type { RequestCall, RequestScope } from '../../telemetry/request-telemetry.js';

/**
 * The body of an interface's error answer, for an error that ends a live query's stream (`call`
 * is the request that opened it, for the log and `onServerError`).
 */
export type RenderError = (exception: unknown, request: ApiRequest, call: RequestCall) => Buffer;

/**
 * What differs between the interfaces as a request passes the stages: each supplies its own, as
 * it supplies its error format to the filter.
 */
export interface InterfaceBehaviour {
  /** The operations `If-Match` applies to; any other write refuses it. */
  readonly conditionalWrites: ReadonlySet<string>;
  /** The writes whose answer is what a read of what they wrote answers: they carry its `ETag`. */
  readonly taggedWrites: ReadonlySet<string>;
  /** A tagged write's answer as the request asks for it (REST: `Prefer: return=`); without one, as it is. */
  readonly shapeWrite?: (answer: WriteAnswer, request: ApiRequest) => RecordedAnswer;
  readonly renderError: RenderError;
  /** The operations a request runs, for what it costs against the rate limits. */
  readonly steps: (request: ApiRequest, scope: RequestScope) => CostedStep[];
}

/** A successful write's answer, with headers of its own to add to. */
export interface WriteAnswer {
  status: number;
  headers: Record<string, string>;
  payload: Buffer;
}

/** One request as it passes the stages: what its controller handed over, and what a stage learned for those after it. */
export interface Exchange {
  readonly raw: PlatformRequest;
  readonly response: PlatformResponse;
  readonly scope: RequestScope;
  readonly request: ApiRequest;
  /** The interface's service: its answer to the request. */
  readonly run: (request: ApiRequest) => Promise<ApiResponse>;
  /** The media type of the answer. */
  readonly contentType: string;
  readonly behaviour: InterfaceBehaviour;
  /** Its id and span, from the telemetry stage on. */
  call?: RequestCall;
  /** The models its read reaches, while the revalidate stage notes them. */
  reads?: ReadonlySet<string>;
}

/**
 * One stage of the pipeline: it does its part of the request, and hands it on to the stages after
 * it (`next`) unless it answers itself; what they answer passes back through it.
 */
export type Stage = (exchange: Exchange, next: () => Promise<RecordedAnswer>) => Promise<RecordedAnswer>;
