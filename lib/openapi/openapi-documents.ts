import { isDeepStrictEqual } from 'node:util';

import type { ModelRegistry } from '../metadata/model-registry.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import { withSecurity } from './document-security.js';
import { DocumentedFields } from './documented-fields.js';
import { withLiveReads } from './live-reads.js';
import type { OpenApiDocument, ResolvedOpenApiOptions } from './openapi.types.js';
import { withResponseHeaders } from './response-headers.js';
import { buildRestDocument } from './rest-document.js';
import { buildRpcDocument } from './rpc-document.js';
import { withDeletedReads } from './soft-delete.js';

/** The two interfaces' documents: served as `{path}/rest.json` and `{path}/rpc.json`. */
export type OpenApiInterface = 'rest' | 'rpc';

/** The title each document adds to the configured one. */
const TITLES: Readonly<Record<OpenApiInterface, string>> = { rest: 'REST (JSON:API)', rpc: 'RPC (superjson)' };

/**
 * Builds both documents of one module instance from its model registry and options. One document
 * per interface: they differ in media types, error formats, naming and client conventions, and a
 * client generator is pointed at the one interface it speaks. Both share nothing but the models.
 */
export function buildOpenApiDocuments(
  registry: ModelRegistry,
  options: ResolvedCrudApiOptions,
  openapi: ResolvedOpenApiOptions,
): Readonly<Record<OpenApiInterface, OpenApiDocument>> {
  const fields = new DocumentedFields(registry, options.policies, options.defaultPolicy, options.rules);
  const info = (kind: OpenApiInterface) => ({ title: `${openapi.title} — ${TITLES[kind]}`, version: openapi.version });
  const servers = openapi.servers ? { servers: openapi.servers } : {};
  const answers = {
    caching: options.caching !== false,
    idempotency: options.idempotency !== undefined,
    rateLimits: options.rateLimits !== undefined,
  };
  // Without a soft-deleted model the interfaces refuse `withDeleted`.
  const deleted = (document: OpenApiDocument) => (fields.softDeletes ? withDeletedReads(document) : document);
  const reads = (document: OpenApiDocument) => (options.live ? withLiveReads(deleted(document)) : deleted(document));
  return {
    rest: withSecurity(
      withResponseHeaders({ ...reads(buildRestDocument(fields, options, info('rest'))), ...servers }, answers),
      openapi,
    ),
    rpc: withSecurity(
      withResponseHeaders({ ...reads(buildRpcDocument(fields, options, info('rpc'))), ...servers }, answers),
      openapi,
    ),
  };
}

/**
 * The document with its paths below `mount` (`/api/rest/...`, as built) moved below `base`, the URL
 * path Nest serves the mount at (global prefix and URI version included: `/api/v1/api/rest`).
 */
export function withMountBase(document: OpenApiDocument, mount: string, base: string): OpenApiDocument {
  const built = `/${mount}`;
  if (base === built) return document;
  return {
    ...document,
    paths: Object.fromEntries(
      Object.entries(document.paths).map(([path, item]) => [
        path.startsWith(`${built}/`) ? `${base}${path.slice(built.length)}` : path,
        item,
      ]),
    ),
  };
}

/**
 * Adds the paths, components and tags of `documents` to `target` (a document an application built,
 * e.g. with `SwaggerModule.createDocument`), so one portal shows everything. A path or component
 * name the target already has is an error, never silently overwritten. The result is OpenAPI 3.1,
 * the version of the added schemas (`SwaggerModule.createDocument` writes 3.0, which 3.1 reads).
 */
export function mergeOpenApiDocuments<
  T extends { openapi?: string; paths: object; components?: object; tags?: unknown[] },
>(target: T, ...documents: OpenApiDocument[]): T {
  const paths: Record<string, unknown> = { ...target.paths };
  const components: Record<string, Record<string, unknown>> = Object.fromEntries(
    Object.entries(target.components ?? {}).map(([kind, entries]) => [
      kind,
      { ...(entries as Record<string, unknown>) },
    ]),
  );
  const tags = [...(target.tags ?? [])];
  for (const document of documents) {
    for (const [path, item] of Object.entries(document.paths)) {
      if (path in paths) throw new Error(`mergeOpenApiDocuments: the path ${path} is in both documents.`);
      paths[path] = item;
    }
    for (const [kind, entries] of Object.entries(document.components)) {
      const into = (components[kind] ??= {});
      for (const [name, value] of Object.entries(entries as Record<string, unknown>)) {
        // Equal whatever the order of their members (`addBearerAuth()` writes `scheme` before `type`).
        if (name in into && !isDeepStrictEqual(into[name], value)) {
          throw new Error(`mergeOpenApiDocuments: components.${kind}.${name} differs between the documents.`);
        }
        into[name] = value;
      }
    }
    tags.push(
      ...(document.tags ?? []).filter((tag) => !tags.some((known) => (known as { name?: string }).name === tag.name)),
    );
  }
  return { ...target, openapi: '3.1.0', paths, components, tags };
}
