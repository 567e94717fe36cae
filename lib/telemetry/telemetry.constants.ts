/** The instrumentation scope of the module's spans and metrics. */
export const INSTRUMENTATION_SCOPE = 'nestjs-crud-api';

/** The header carrying a request's id, both ways. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Names of the spans under a request's span (docs/observability.md). */
export const SPANS = {
  /** The request span's name until its attributes are known. */
  request: 'crud_api.request',
  parse: 'crud_api.parse',
  policy: 'crud_api.policy',
  rules: 'crud_api.rules',
  serialize: 'crud_api.serialize',
} as const;

/** Attribute keys: OpenTelemetry's semantic conventions where they exist, `crud_api.` for the module's own. */
export const ATTRIBUTES = {
  method: 'http.request.method',
  route: 'http.route',
  status: 'http.response.status_code',
  errorType: 'error.type',
  interface: 'crud_api.interface',
  model: 'crud_api.model',
  operation: 'crud_api.operation',
  requestId: 'crud_api.request.id',
  errorCode: 'crud_api.error.code',
  prismaCode: 'crud_api.prisma.code',
} as const;

/** Metric names (docs/observability.md). */
export const METRICS = {
  requests: 'crud_api.requests',
  duration: 'crud_api.request.duration',
  databaseErrors: 'crud_api.database.errors',
} as const;
