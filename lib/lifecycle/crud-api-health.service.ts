import { Inject, Injectable } from '@nestjs/common';

import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { RequestDrain } from './request-drain.js';

/** Why the check is `down`. */
export type CrudApiHealthReason = 'shutting-down' | 'database-unreachable' | 'database-timeout';

/** A `@nestjs/terminus` health indicator result: `{ [key]: { status, ... } }`. */
export type CrudApiHealthResult = Record<
  string,
  { status: 'up' } | { status: 'down'; reason: CrudApiHealthReason; message: string }
>;

export interface CrudApiHealthCheckOptions {
  /** Longest wait for the database's answer, in milliseconds. Default 1000. */
  timeout?: number;
  /** The client to probe. Default: the instance's `prisma` option (required with `getPrisma` alone). */
  prisma?: PrismaClientLike;
}

const DEFAULT_HEALTH_TIMEOUT = 1000;

/** A probe every supported database answers, through the client's own connections. */
const PROBE = 'SELECT 1';

/**
 * The health of one module instance, as a `@nestjs/terminus` indicator (no import of terminus
 * needed: its `HealthCheckService` reads the returned status): `up` when the database answers a
 * `SELECT 1` within the timeout, `down` with the reason when it does not, or while the
 * application is shutting down (terminus then answers 503).
 */
@Injectable()
export class CrudApiHealth {
  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    @Inject(RequestDrain) private readonly drain: RequestDrain,
  ) {}

  async check(key = 'crudApi', options: CrudApiHealthCheckOptions = {}): Promise<CrudApiHealthResult> {
    const down = (reason: CrudApiHealthReason, message: string): CrudApiHealthResult => ({
      [key]: { status: 'down', reason, message },
    });
    if (this.drain.isClosing) return down('shutting-down', 'The application is shutting down.');
    const prisma = options.prisma ?? this.options.prisma;
    if (!prisma) throw new Error('CrudApiHealth.check: give the client to probe (`prisma`) with `getPrisma` alone');
    const timeout = options.timeout ?? DEFAULT_HEALTH_TIMEOUT;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeout);
    });
    // The probe's own error goes nowhere (not even to the client: it may name hosts); its outcome does.
    const probe = (prisma.$queryRawUnsafe(PROBE) as Promise<unknown>).then(
      () => 'up' as const,
      () => 'unreachable' as const,
    );
    const outcome = await Promise.race([probe, timedOut]).finally(() => clearTimeout(timer));
    if (outcome === 'up') return { [key]: { status: 'up' } };
    return outcome === 'timeout'
      ? down('database-timeout', `The database did not answer within ${timeout} ms.`)
      : down('database-unreachable', 'The database could not be reached.');
  }
}
