import type { RecordedAnswer } from '../data/idempotency/idempotency-records.js';
import { errorBodyRenderer } from '../filters/send-api-error.js';
import { CONDITIONAL_WRITES, TAGGED_WRITES } from '../lifecycle/interface-writes.js';
import type { InterfaceBehaviour, WriteAnswer } from '../lifecycle/pipeline/exchange.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { ApiRequest } from '../shared/api-request.js';
import { preferenceValue } from '../shared/prefer.js';
import { JSON_API_ERROR_FORMAT } from './rest-errors.js';
import { restSteps } from './rest-steps.js';

/**
 * A write's answer shaped by `Prefer: return=minimal` (204 with no body, `Location` and `ETag`
 * kept) or `return=representation` (the document, as without a preference), which
 * `Preference-Applied` confirms.
 */
export function preferredReturn({ status, headers, payload }: WriteAnswer, request: ApiRequest): RecordedAnswer {
  const preference = preferenceValue(request.headers.prefer, 'return');
  if (preference === 'minimal') return { status: 204, headers: { ...headers, 'Preference-Applied': 'return=minimal' } };
  if (preference !== 'representation') return { status, headers, payload };
  return { status, headers: { ...headers, 'Preference-Applied': 'return=representation' }, payload };
}

/** How JSON:API requests pass the request pipeline. */
export function restBehaviour(options: ResolvedCrudApiOptions, registry: ModelRegistry): InterfaceBehaviour {
  return {
    conditionalWrites: CONDITIONAL_WRITES.rest,
    taggedWrites: TAGGED_WRITES.rest,
    shapeWrite: preferredReturn,
    renderError: errorBodyRenderer(JSON_API_ERROR_FORMAT, options),
    steps: (request, scope) => restSteps(registry, request, scope),
  };
}
