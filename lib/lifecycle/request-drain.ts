import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

import { CrudApiError } from '../errors/crud-api.error.js';
import { CRUD_API_MOUNT, CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PlatformResponse } from '../shared/api-response.js';
import { runShutdownHooksFirst } from './hooks-first.js';

/** A request's response: Node's `ServerResponse` (Express's response, Fastify's `reply.raw`). */
export interface ClosingResponse {
  readonly headersSent: boolean;
  setHeader(name: string, value: string): unknown;
}

const logger = new Logger('CrudApi');

/** Sent with a refusal while shutting down: retry now, on a connection to another server. */
const SHUTTING_DOWN_HEADERS = { 'Retry-After': '1', Connection: 'close' };

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

  /**
   * Counts a request of the instance's routes in flight until `release`; once closing, refuses it
   * with 503 `shutting-down`, answered in the interface's format by its filter. `RequestServer`
   * calls both around the request's work: a plain call costs less than an interceptor's
   * observable, or a `close` listener, on every request.
   */
  admit(platformResponse: PlatformResponse): ClosingResponse {
    if (this.closing) {
      throw new CrudApiError('shutting-down', 'The server is shutting down; retry the request.', {
        headers: SHUTTING_DOWN_HEADERS,
      });
    }
    const response = ((platformResponse as { raw?: unknown }).raw ?? platformResponse) as ClosingResponse;
    this.inFlight.add(response);
    return response;
  }

  /** Ends an admitted request's time in flight: its work is done, its answer written or failed. */
  release(response: ClosingResponse): void {
    this.inFlight.delete(response);
    if (this.inFlight.size === 0) this.drained?.();
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
