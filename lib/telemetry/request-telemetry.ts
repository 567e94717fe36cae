import type { IncomingHttpHeaders } from 'node:http';

import { type Attributes, context, type Span, trace } from '@opentelemetry/api';

import type { PlatformRequest } from '../shared/api-request.js';
import { requestIdOf } from './request-id.js';
import { requestInstruments } from './request-metrics.js';
import { ATTRIBUTES, SPANS } from './telemetry.constants.js';
import { moduleTracer, recordFailure } from './tracer.js';

/** The module's two interfaces. */
export type ApiInterface = 'rest' | 'rpc';

/** What a request of the module's routes is, as far as it is known (never raw URL text: metrics stay bounded). */
export interface RequestScope {
  interface: ApiInterface;
  /** REST: `list`, `fetch`, `create`...; RPC: the Prisma operation or `$transaction`. */
  operation?: string;
  /** The Prisma model name. */
  model?: string;
}

/** One request of the module's routes, from the module receiving it to its answer. */
export interface RequestCall extends RequestScope {
  /** Its `X-Request-Id`. */
  readonly id: string;
  readonly span: Span;
  readonly startedAt: number;
  finished: boolean;
}

/** How a request failed, for its span and the metrics. */
export interface RequestFailure {
  exception: unknown;
  /** The catalogue code it was answered with. */
  code: string;
  /** Whether the database (or Prisma) failed it; with Prisma's code when there is one. */
  database: boolean;
  prismaCode?: string;
}

/**
 * The calls of failed requests, for the error filter. A WeakMap rather than a property of the
 * request: a property added to a request changes its shape, which slows the platform's own code on it.
 */
const CALLS = new WeakMap<object, RequestCall>();

interface CarrierRequest {
  method: string;
  headers: IncomingHttpHeaders;
  routeOptions?: { url?: string };
  route?: { path?: string };
}

/** The call of a failed request, if the module began one (`keepCallForFilter`). */
export function requestCallOf(raw: PlatformRequest): RequestCall | undefined {
  return CALLS.get(raw as object);
}

/** Keeps a failed request's call for the filter that answers it: only failures pay for the map. */
export function keepCallForFilter(raw: PlatformRequest, call: RequestCall): void {
  CALLS.set(raw as object, call);
}

/**
 * Begins a request: its id, and its span (a child of the active one, an HTTP server
 * instrumentation's). Attributes are set only on a recording span: without an SDK, nothing is built.
 */
export function beginRequest(raw: PlatformRequest, scope: RequestScope): RequestCall {
  const carrier = raw as CarrierRequest;
  const span = moduleTracer().startSpan(SPANS.request);
  const call: RequestCall = {
    interface: scope.interface,
    operation: scope.operation,
    model: scope.model,
    id: requestIdOf(carrier.headers),
    span,
    startedAt: performance.now(),
    finished: false,
  };
  if (span.isRecording()) describeSpan(span, carrier, call);
  return call;
}

function describeSpan(span: Span, raw: CarrierRequest, call: RequestCall): void {
  span.updateName([call.interface, call.operation, call.model].filter(Boolean).join(' '));
  const route = raw.routeOptions?.url ?? raw.route?.path;
  span.setAttributes({
    ...scopeAttributes(call),
    [ATTRIBUTES.method]: raw.method,
    [ATTRIBUTES.requestId]: call.id,
    ...(route === undefined ? {} : { [ATTRIBUTES.route]: route }),
  });
}

/** Runs the request's work with its span active, so the module's and Prisma's spans nest under it. */
export function runInRequest<T>(call: RequestCall, run: () => T): T {
  return call.span.isRecording() ? context.with(trace.setSpan(context.active(), call.span), run) : run();
}

/** Ends the request's span and counts it (once: a failure after the answer changes nothing). */
export function finishRequest(call: RequestCall, status: number, failure?: RequestFailure): void {
  if (call.finished) return;
  call.finished = true;
  const { span } = call;
  if (span.isRecording()) {
    span.setAttribute(ATTRIBUTES.status, status);
    if (failure) span.setAttribute(ATTRIBUTES.errorCode, failure.code);
    if (failure && status >= 500) {
      span.setAttribute(ATTRIBUTES.errorType, failure.code);
      recordFailure(span, failure.exception);
    }
  }
  span.end();
  const instruments = requestInstruments();
  if (!instruments) return;
  const attributes = { ...scopeAttributes(call), [ATTRIBUTES.status]: status };
  instruments.requests.add(1, attributes);
  instruments.duration.record((performance.now() - call.startedAt) / 1000, attributes);
  if (failure?.database) {
    instruments.databaseErrors.add(1, {
      ...scopeAttributes(call),
      [ATTRIBUTES.errorCode]: failure.code,
      ...(failure.prismaCode === undefined ? {} : { [ATTRIBUTES.prismaCode]: failure.prismaCode }),
    });
  }
}

function scopeAttributes(call: RequestScope): Attributes {
  return {
    [ATTRIBUTES.interface]: call.interface,
    ...(call.model === undefined ? {} : { [ATTRIBUTES.model]: call.model }),
    ...(call.operation === undefined ? {} : { [ATTRIBUTES.operation]: call.operation }),
  };
}
