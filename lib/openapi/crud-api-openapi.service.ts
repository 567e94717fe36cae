import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';

import { ModelRegistry } from '../metadata/model-registry.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { interfaceMounts } from '../options/interface-mounts.js';
import { mountBases, type NestMount } from '../shared/nest-route-paths.js';
import type { OpenApiDocument, ResolvedOpenApiOptions } from './openapi.types.js';
import { buildOpenApiDocuments, type OpenApiInterface, withMountBase } from './openapi-documents.js';

/** Injection token of one instance's resolved `openapi` extra. */
export const OPENAPI_OPTIONS = Symbol('CRUD_API_OPENAPI_OPTIONS');

/**
 * One module instance's OpenAPI documents, generated from its model registry and options when first
 * asked for. Inject it (or `app.get(CrudApiOpenApi)`) to merge the documents into another one.
 */
@Injectable()
export class CrudApiOpenApi {
  private documents?: Readonly<Record<OpenApiInterface, OpenApiDocument>>;
  private readonly mounts: Readonly<Record<OpenApiInterface, NestMount>>;
  /** @internal The resolved `openapi` extra, for the module's own controller. */
  readonly openapi: ResolvedOpenApiOptions;

  /** @internal Nest constructs it. */
  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    @Inject(ModelRegistry) private readonly registry: ModelRegistry,
    @Inject(OPENAPI_OPTIONS) openapi: ResolvedOpenApiOptions,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
  ) {
    this.openapi = openapi;
    this.mounts = interfaceMounts(options);
  }

  /**
   * The document of one interface, its paths where Nest serves them: under the application's
   * global prefix and, with URI versioning, the version (the first of a list of versions).
   */
  document(kind: OpenApiInterface): OpenApiDocument {
    // Built on first use, not at start-up: most processes never serve or merge them, and they
    // weigh megabytes of heap for a large schema (3 MB for the sample's few models).
    this.documents ??= buildOpenApiDocuments(this.registry, this.options, this.openapi);
    const mount = this.mounts[kind];
    return withMountBase(this.documents[kind], mount.path, mountBases(this.moduleRef, mount)[0]!);
  }
}
