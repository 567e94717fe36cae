import { type Span, SpanStatusCode, trace } from '@opentelemetry/api';

import { INSTRUMENTATION_SCOPE } from './telemetry.constants.js';

/** The module's tracer: the API's proxy, so an SDK registered later (or reset) takes effect. */
export const tracer = trace.getTracer(INSTRUMENTATION_SCOPE);

/** Marks a recording span as failed by `error`. */
export function recordFailure(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}
