import { type Span, SpanStatusCode, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';

import { INSTRUMENTATION_SCOPE } from './telemetry.constants.js';

/** Per global tracer provider: `trace.disable()` and a new registration replace it (tests, restarts). */
const tracers = new WeakMap<TracerProvider, Tracer>();

/** The module's tracer on the current global provider (the API's proxy, which finds an SDK's once registered). */
export function moduleTracer(): Tracer {
  const provider = trace.getTracerProvider();
  let tracer = tracers.get(provider);
  if (!tracer) {
    tracer = provider.getTracer(INSTRUMENTATION_SCOPE);
    tracers.set(provider, tracer);
  }
  return tracer;
}

/** Marks a recording span as failed by `error`. */
export function recordFailure(span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR });
}
