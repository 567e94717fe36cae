import { type ArgumentsHost, type ExceptionFilter, Inject } from '@nestjs/common';

import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { toApiRequest } from '../shared/api-request.js';
import { type ErrorFormat, type ErrorRendering, errorRendering, sendApiError } from './send-api-error.js';

/**
 * Renders every error of the module's routes (guards, pipes and interceptors of the application
 * included) in the format of the interface. Bound to the module's controllers only, so it takes
 * precedence over the application's global filters there and leaves every other route to them.
 */
export abstract class CrudApiExceptionFilter implements ExceptionFilter {
  protected abstract readonly format: ErrorFormat;
  private readonly rendering: ErrorRendering;

  constructor(@Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions) {
    this.rendering = errorRendering(options);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendApiError(
      this.format,
      exception,
      { request: toApiRequest(http.getRequest()), response: http.getResponse() },
      this.rendering,
    );
  }
}
