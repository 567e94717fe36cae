import type { Server } from 'node:http';

import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost, ModulesContainer } from '@nestjs/core';

import { CrudApiError } from '../errors/crud-api.error.js';
import { CRUD_API_MOUNT, CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PlatformResponse } from '../shared/api-response.js';
import { ServerConnections } from './server-connections.js';
import { moveShutdownHooksFirst } from './shutdown-hook-order.js';

const logger = new Logger('CrudApi');

/** Sent with a refusal while shutting down: retry now, on a connection to another server. */
const SHUTTING_DOWN_HEADERS = { 'Retry-After': '1', Connection: 'close' };

/**
 * The requests in flight on one module instance's routes, and whether the instance still takes
 * new ones. When the application closes, the instance stops taking requests and waits for those
 * in flight to end, then, on a signal, for the server's connections to close after an answer, at
 * most the grace period. The requests in flight are waited for in the first of all modules' destroy hooks, so before an application hook can
 * disconnect the Prisma client their transactions run on.
 */
@Injectable()
export class RequestDrain implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly inFlight = new Set<PlatformResponse>();
  private closing = false;
  private drained?: () => void;
  private connections?: ServerConnections;
  /** When the grace period that began with the close ends. */
  private deadline = 0;

  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    @Inject(CRUD_API_MOUNT) mount: symbol,
    @Inject(ModulesContainer) modules: ModulesContainer,
    @Inject(HttpAdapterHost) private readonly adapterHost: HttpAdapterHost,
  ) {
    moveShutdownHooksFirst(modules, mount);
  }

  /** Follows the HTTP server's connections (none in an application context without one). */
  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (typeof server?.closeIdleConnections === 'function') this.connections = ServerConnections.of(server);
  }

  /** Whether the application is closing: the instance takes no new request. */
  get isClosing(): boolean {
    return this.closing;
  }

  /**
   * Counts a request of the instance's routes in flight until `release`; once closing, refuses it
   * with 503 `shutting-down`, answered in the interface's format by its filter. The pipeline's
   * admit stage (`pipeline/admit.ts`) calls both around the request's work: a plain call costs
   * less than an interceptor's observable, or a `close` listener, on every request.
   */
  admit(response: PlatformResponse): PlatformResponse {
    if (this.closing) {
      throw new CrudApiError('shutting-down', 'The server is shutting down; retry the request.', {
        headers: SHUTTING_DOWN_HEADERS,
      });
    }
    this.inFlight.add(response);
    return response;
  }

  /** Ends an admitted request's time in flight: its work is done, its answer written or failed. */
  release(response: PlatformResponse): void {
    this.inFlight.delete(response);
    if (this.inFlight.size === 0) this.drained?.();
  }

  onModuleDestroy(): Promise<void> {
    return this.close();
  }

  /** Stops taking requests; resolves once those in flight have ended, or after the grace period. */
  async close(): Promise<void> {
    this.closing = true;
    this.deadline = Date.now() + this.options.shutdown.gracePeriod;
    await this.inFlightEnded(this.deadline);
  }

  /**
   * On a signal (a process manager stopping the instance, with clients still connected), waits
   * for the server's connections to close after an answer, within the same grace period. Until
   * then an idle keep-alive connection stays open: a request a client sends on it is answered (503
   * on the instance's routes) and its connection closes after the answer, so the client never
   * sees it reset. An `app.close()` without a signal (tests, scripts) closes idle connections at
   * once, as Nest does without the module.
   */
  async beforeApplicationShutdown(signal?: string): Promise<void> {
    if (!signal || !this.connections) return;
    this.connections.closeAfterAnswers(this.deadline);
    await this.connections.closed(this.deadline);
  }

  private inFlightEnded(deadline: number): Promise<void> {
    // Their connections stay open after the answer: the client's next request on one is refused
    // there, with `Retry-After`, rather than meet a server that no longer listens.
    if (this.inFlight.size === 0) return Promise.resolve();
    const { gracePeriod } = this.options.shutdown;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        logger.warn(`${this.inFlight.size} request(s) still in flight after the ${gracePeriod} ms grace period`);
        resolve();
      }, deadline - Date.now());
      this.drained = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
}
