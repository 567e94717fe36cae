import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';

import { CrudApiError } from '../errors/crud-api.error.js';
import { type ClosingResponse, RequestDrain } from './request-drain.js';

/** Sent with a refusal while shutting down: retry now, on a connection to another server. */
const SHUTTING_DOWN_HEADERS = { 'Retry-After': '1', Connection: 'close' };

/**
 * On the module's routes: counts each request in flight, and once the application is closing
 * refuses new ones with 503 `shutting-down` (in the interface's error format, through its filter).
 */
@Injectable()
export class DrainInterceptor implements NestInterceptor {
  constructor(@Inject(RequestDrain) private readonly drain: RequestDrain) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const response = context.switchToHttp().getResponse<ClosingResponse & { raw?: ClosingResponse }>();
    if (!this.drain.admit(response.raw ?? response)) {
      throw new CrudApiError('shutting-down', 'The server is shutting down; retry the request.', {
        headers: SHUTTING_DOWN_HEADERS,
      });
    }
    return next.handle();
  }
}
