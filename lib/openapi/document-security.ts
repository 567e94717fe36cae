import type { OpenApiDocument, ResolvedOpenApiOptions } from './openapi.types.js';

/** The keys of a path item that are operations (its others are `parameters`, `summary`...). */
const OPERATION_KEYS: ReadonlySet<string> = new Set([
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
]);

/** The document's paths with every operation (not `parameters`, `summary`...) replaced by `change`'s. */
export function mapOperations(
  paths: OpenApiDocument['paths'],
  change: (method: string, operation: Record<string, unknown>) => unknown,
): OpenApiDocument['paths'] {
  return Object.fromEntries(
    Object.entries(paths).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([key, value]) => [
          key,
          OPERATION_KEYS.has(key) ? change(key, value as Record<string, unknown>) : value,
        ]),
      ),
    ]),
  );
}

/**
 * The document with the `securitySchemes` in its components and the `security` on every operation:
 * on the operations rather than at the top, so that they survive `mergeOpenApiDocuments` into an
 * application's document, which keeps its own top-level `security`. Default: any one scheme.
 */
export function withSecurity(
  document: OpenApiDocument,
  { securitySchemes = {}, security }: Pick<ResolvedOpenApiOptions, 'securitySchemes' | 'security'>,
): OpenApiDocument {
  const names = Object.keys(securitySchemes);
  if (names.length === 0 && security === undefined) return document;
  const required = security ?? names.map((name) => ({ [name]: [] }));
  const paths = mapOperations(document.paths, (_method, operation) => ({ ...operation, security: required }));
  return {
    ...document,
    paths,
    components: { ...document.components, ...(names.length ? { securitySchemes } : {}) },
  };
}
