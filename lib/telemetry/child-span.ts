import { type Span, trace } from '@opentelemetry/api';

import { ATTRIBUTES } from './telemetry.constants.js';
import { moduleTracer, recordFailure } from './tracer.js';

/**
 * Runs `run` in a span named `name`, active for what it calls (Prisma's spans nest under it), ended
 * when it returns or settles. Only under a recording span (a request of the module's traced by an
 * SDK): otherwise `run` runs as it is, so that without an SDK this costs one context lookup.
 */
export function inChildSpan<T>(name: string, run: () => T, model?: string, operation?: string): T {
  if (!trace.getActiveSpan()?.isRecording()) return run();
  return moduleTracer().startActiveSpan(name, (span) => {
    if (model !== undefined) span.setAttribute(ATTRIBUTES.model, model);
    if (operation !== undefined) span.setAttribute(ATTRIBUTES.operation, operation);
    let result: T;
    try {
      result = run();
    } catch (error) {
      endFailed(span, error);
      throw error;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (value: unknown) => {
        span.end();
        return value;
      },
      (error: unknown) => {
        endFailed(span, error);
        throw error;
      },
    ) as T;
  });
}

function endFailed(span: Span, error: unknown): void {
  recordFailure(span, error);
  span.end();
}
