import { errorBodyRenderer } from '../filters/send-api-error.js';
import { CONDITIONAL_WRITES, TAGGED_WRITES } from '../lifecycle/interface-writes.js';
import type { InterfaceBehaviour } from '../lifecycle/pipeline/exchange.js';
import type { ModelRegistry } from '../metadata/model-registry.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { RPC_ERROR_FORMAT } from './rpc-errors.js';
import { rpcSteps } from './rpc-steps.js';

/** How RPC requests pass the request pipeline: a write's answer is never shaped by the request. */
export function rpcBehaviour(options: ResolvedCrudApiOptions, registry: ModelRegistry): InterfaceBehaviour {
  return {
    conditionalWrites: CONDITIONAL_WRITES.rpc,
    taggedWrites: TAGGED_WRITES.rpc,
    renderError: errorBodyRenderer(RPC_ERROR_FORMAT, options),
    steps: (request, scope) => rpcSteps(registry, request, scope),
  };
}
