import { type CanActivate, type ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';

import type { SampleDatabase } from '../fixtures/blog/database/create-prisma-client.js';
import type { DemoUser } from '../fixtures/blog/policies.js';
import { SAMPLE_DATABASE } from './database/database.module.js';

export const DEMO_USER_HEADER = 'x-user-id';

/**
 * DEMO ONLY, NOT AUTHENTICATION: trusts an `x-user-id` header and puts that user in
 * `request.user`, where a real application's Passport strategy or guard would put the verified
 * caller. Anyone can send any id. Without the header the request is anonymous; an unknown id is 401.
 * A guard (not a middleware) so that its 401 is answered in each route's own error format.
 */
@Injectable()
export class DemoAuthGuard implements CanActivate {
  constructor(@Inject(SAMPLE_DATABASE) private readonly database: SampleDatabase) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: DemoUser }>();
    const header = request.headers[DEMO_USER_HEADER];
    if (header === undefined) return true;
    const id = Number(header);
    const user = Number.isSafeInteger(id)
      ? await this.database.prisma.user.findUnique({ where: { id }, select: { id: true, role: true } })
      : null;
    if (!user) throw new UnauthorizedException(`Demo authentication: no user with id "${String(header)}"`);
    request.user = user;
    return true;
  }
}
