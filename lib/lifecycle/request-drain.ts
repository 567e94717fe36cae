import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

import { CRUD_API_MOUNT, CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { runShutdownHooksFirst } from './hooks-first.js';

/** A request's response: Node's `ServerResponse` (Express's response, Fastify's `reply.raw`). */
export interface ClosingResponse {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
  once(event: 'close', listener: () => void): unknown;
}

const logger = new Logger('CrudApi');

/**
 * The requests in flight on one module instance's routes, and whether the instance still takes
 * new ones. When the application closes, the instance stops taking requests and waits for those
 * in flight to end, at most the grace period: in the first of all modules' destroy hooks, so
 * before an application hook can disconnect the Prisma client their transactions run on.
 */
@Injectable()
export class RequestDrain implements OnModuleDestroy {
  private readonly inFlight = new Set<ClosingResponse>();
  private closing = false;
  private drained?: () => void;

  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    @Inject(CRUD_API_MOUNT) mount: symbol,
    @Inject(ModulesContainer) modules: ModulesContainer,
  ) {
    runShutdownHooksFirst(modules, mount);
  }

  /** Whether the application is closing: the instance takes no new request. */
  get isClosing(): boolean {
    return this.closing;
  }

  /** Counts a request in flight until its response closes; false once closing (the request is refused). */
  admit(response: ClosingResponse): boolean {
    if (this.closing) return false;
    this.inFlight.add(response);
    response.once('close', () => {
      this.inFlight.delete(response);
      if (this.inFlight.size === 0) this.drained?.();
    });
    return true;
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  /** Stops taking requests; resolves once those in flight have ended, or after the grace period. */
  close(): Promise<void> {
    this.closing = true;
    if (this.inFlight.size === 0) return Promise.resolve();
    // Their connections close after the answer: a client's next request goes to another server.
    for (const response of this.inFlight) if (!response.headersSent) response.setHeader('Connection', 'close');
    const { gracePeriod } = this.options.shutdown;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        logger.warn(`${this.inFlight.size} request(s) still in flight after the ${gracePeriod} ms grace period`);
        resolve();
      }, gracePeriod);
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
