// The RPC argument validator, for the service and for `npm run bench` to time on its own.
export { assertArgumentLimits, type ArgumentLimits } from './argument-limits.js';
export { validateRpcArgs, type RpcArgsValidation } from './validate-rpc-args.js';
