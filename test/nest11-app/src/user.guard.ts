import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { AppContext } from './policies';

/** TEST ONLY, NOT AUTHENTICATION: trusts the `x-user-id` header as the caller's id. */
@Injectable()
export class UserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown> } & AppContext>();
    const id = Number(request.headers['x-user-id']);
    if (Number.isSafeInteger(id) && id > 0) request.user = { id };
    return true;
  }
}
