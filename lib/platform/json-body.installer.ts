import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';

import { errorRendering } from '../filters/send-api-error.js';
import { CRUD_API_MOUNT, CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { interfaceMounts } from '../options/interface-mounts.js';
import { mountBases } from '../shared/nest-route-paths.js';
import { ApiMounts } from './api-mounts.js';
import { bodyLimitBytes } from './body-limit.js';
import type { CrudApiRoute } from './crud-api-route.js';
import { expressJsonBody } from './express-json-body.js';
import { type FastifyInstance, installFastifyJsonBody } from './fastify-json-body.js';
import { onHttpAdapter } from './on-http-adapter.js';

/**
 * Sets up the JSON body parsing of one module instance's routes on the application's platform,
 * as soon as Nest creates the HTTP adapter: before `app.init()` registers Nest's own parsers
 * (Express) and the routes (Fastify). Nothing changes for the application's other routes.
 */
@Injectable()
export class JsonBodyInstaller {
  constructor(
    @Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions,
    @Inject(CRUD_API_MOUNT) instance: symbol,
    adapterHost: HttpAdapterHost,
    moduleRef: ModuleRef,
  ) {
    const bodyLimit = bodyLimitBytes(options.bodyLimit);
    const errors = errorRendering(options);
    const mounts = new ApiMounts(interfaceMounts(options), (mount) => mountBases(moduleRef, mount));
    // Nest 11's Fastify adapter registers `@All` routes, the RPC route, without their route config.
    const unmarkedRoute = (url: string): CrudApiRoute | undefined =>
      mounts.isMountRoute('rpc', url) ? { kind: 'rpc', instance } : undefined;
    onHttpAdapter(adapterHost, (adapter) => {
      if (adapter.getType() === 'express') {
        adapter.use(expressJsonBody({ mounts, bodyLimit, errors }));
      } else if (adapter.getType() === 'fastify') {
        installFastifyJsonBody(adapter.getInstance<FastifyInstance>(), { instance, bodyLimit, errors, unmarkedRoute });
      }
    });
  }
}
