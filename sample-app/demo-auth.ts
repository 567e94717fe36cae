import { UnauthorizedException } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { SamplePrismaClient } from './database/create-prisma-client.js';
import type { DemoUser } from './policies.js';

export const DEMO_USER_HEADER = 'x-user-id';

/**
 * DEMO ONLY, NOT AUTHENTICATION: trusts an `x-user-id` header and puts that user in
 * `request.user`, where a real application's Passport strategy or guard would put the verified
 * caller. Anyone can send any id. Without the header the request is anonymous; an unknown id is 401.
 */
export function demoAuth(prisma: SamplePrismaClient) {
  return async (request: Request & { user?: DemoUser }, _response: Response, next: NextFunction): Promise<void> => {
    const header = request.header(DEMO_USER_HEADER);
    if (header === undefined) return next();
    const id = Number(header);
    const user = Number.isSafeInteger(id) ? await prisma.user.findUnique({ where: { id }, select: { id: true, role: true } }) : null;
    if (!user) return next(new UnauthorizedException(`Demo authentication: no user with id "${header}"`));
    request.user = user;
    next();
  };
}
