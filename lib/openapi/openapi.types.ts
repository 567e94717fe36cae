/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as plain data. */
export type JsonSchema = Record<string, unknown>;

/** An OpenAPI 3.1 document as plain data (what `SwaggerModule.createDocument` returns is one too). */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  servers?: OpenApiServer[];
  paths: Record<string, Record<string, unknown>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses?: Record<string, unknown>;
    parameters?: Record<string, unknown>;
    headers?: Record<string, unknown>;
    securitySchemes?: Record<string, OpenApiSecurityScheme>;
  };
  tags?: { name: string; description?: string }[];
  [extension: `x-${string}`]: unknown;
}

export interface OpenApiServer {
  url: string;
  description?: string;
}

/** One OAuth 2 flow of a security scheme; `scopes` maps each scope to its description. */
export interface OpenApiOAuthFlow {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: Record<string, string>;
}

/** An OpenAPI security scheme (`components.securitySchemes`): HTTP (bearer, basic), API key (header, query, cookie), OAuth 2, OpenID Connect. */
export type OpenApiSecurityScheme = { description?: string } & (
  | { type: 'http'; scheme: string; bearerFormat?: string }
  | { type: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie' }
  | {
      type: 'oauth2';
      flows: Partial<Record<'implicit' | 'password' | 'clientCredentials' | 'authorizationCode', OpenApiOAuthFlow>>;
    }
  | { type: 'openIdConnect'; openIdConnectUrl: string }
);

/** One way to authenticate (`security`): each named scheme with the scopes it needs (`[]` unless OAuth 2/OpenID). */
export type OpenApiSecurityRequirement = Record<string, string[]>;

/** The `openapi` extra: `true` for the defaults, or what to change. */
export interface CrudApiOpenApiOptions {
  /**
   * Mount path of the documents and Swagger UI.
   * @defaultValue `'api/docs'`
   */
  path?: string;
  /**
   * `info.title` of the documents; each adds its interface (" — REST (JSON:API)").
   * @defaultValue `'CRUD API'`
   */
  title?: string;
  /**
   * `info.version` of the documents.
   * @defaultValue `'1.0.0'`
   */
  version?: string;
  /**
   * `servers` of the documents (origins: the paths carry the mount paths).
   * @defaultValue the serving origin
   */
  servers?: OpenApiServer[];
  /**
   * Serve Swagger UI at `path` (from swagger-ui-dist, no CDN).
   * @defaultValue `true`
   */
  ui?: boolean;
  /**
   * Class decorators applied to the documents' and Swagger UI's controller (`[Public()]`, `[UseGuards(DocsGuard)]`).
   * @defaultValue none
   */
  decorators?: ClassDecorator[];
  /**
   * The security schemes of both documents, by name: `{ bearer: { type: 'http', scheme: 'bearer',
   * bearerFormat: 'JWT' } }`. Swagger UI then shows Authorize and sends what is entered there.
   * @defaultValue none
   */
  securitySchemes?: Record<string, OpenApiSecurityScheme>;
  /**
   * What every operation of both documents requires, as alternatives (`[{ bearer: [] }, { apiKey: [] }]`).
   * `[]` documents the operations as open.
   * @defaultValue any one of `securitySchemes`
   */
  security?: OpenApiSecurityRequirement[];
}

/** The options that have a default. */
type DefaultedOpenApiOption = 'path' | 'title' | 'version' | 'ui';

/** `openapi` with every default applied. */
export type ResolvedOpenApiOptions = Required<Pick<CrudApiOpenApiOptions, DefaultedOpenApiOption>> &
  Omit<CrudApiOpenApiOptions, DefaultedOpenApiOption>;

export const DEFAULT_OPENAPI_OPTIONS: ResolvedOpenApiOptions = {
  path: 'api/docs',
  title: 'CRUD API',
  version: '1.0.0',
  ui: true,
};

/** The options of the `openapi` extra with the defaults applied; `undefined` when it is off. */
export function resolveOpenApiOptions(
  option: boolean | CrudApiOpenApiOptions | undefined,
): ResolvedOpenApiOptions | undefined {
  if (!option) return undefined;
  return { ...DEFAULT_OPENAPI_OPTIONS, ...(option === true ? {} : option) };
}

/** `#/components/schemas/<name>`. */
export function ref(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** The schema, or `null`. */
export function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}
