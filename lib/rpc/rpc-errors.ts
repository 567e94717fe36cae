import { Catch, Injectable } from '@nestjs/common';

import { CrudApiExceptionFilter } from '../filters/crud-api-exception.filter.js';
import type { ErrorDescription } from '../filters/error-description.js';
import type { ErrorFormat } from '../filters/send-api-error.js';
import { formatArgPath } from './args/arg-path.js';

/** The RPC error body of the specification, with the module's catalogue code in `errorCode`. */
export function renderRpcError(error: ErrorDescription): object {
  return {
    error: {
      message: error.message,
      errorCode: error.code,
      ...(error.ormCode ? { orm: true, code: error.ormCode } : {}),
      ...(error.rejectedByPolicy ? { rejectedByPolicy: true } : {}),
      ...(error.reason ? { reason: error.reason } : {}),
      ...(error.index === undefined ? {} : { meta: { index: error.index } }),
      ...(error.code === 'validation-failed' && error.issues?.length
        ? { issues: error.issues.map(({ path, message, code }) => ({ path: formatArgPath(path), message, code })) }
        : {}),
    },
  };
}

/** The RPC interface's error format. */
export const RPC_ERROR_FORMAT: ErrorFormat = {
  interface: 'rpc',
  contentType: 'application/json',
  render: renderRpcError,
};

/** `{ error: { message, … } }` on the RPC routes. */
@Catch()
@Injectable()
export class RpcExceptionFilter extends CrudApiExceptionFilter {
  protected readonly format = RPC_ERROR_FORMAT;
}
