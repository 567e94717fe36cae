import { createRequire } from 'node:module';

import type { ErrorObject, Options, ValidateFunction } from 'ajv';

import type { OpenApiDocument } from '../../lib/index.js';

// ajv and ajv-formats are CommonJS; their draft 2020-12 build is OpenAPI 3.1's dialect.
const require = createRequire(import.meta.url);
const Ajv2020 = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js').default;
const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;

/**
 * Compiled for a verdict, not for speed: each document and schema is compiled once per contract,
 * and most are used by a few requests (referenced schemas compiled once, documents not checked
 * against the meta-schema, generated code not optimised).
 */
const AJV_OPTIONS: Options = {
  strict: false,
  verbose: true,
  inlineRefs: false,
  validateSchema: false,
  code: { optimize: false },
};

/** One HTTP exchange as a test saw it. */
export interface Exchange {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  requestContentType?: string;
  requestBody?: unknown;
  status: number;
  responseContentType?: string;
  /** The response text; empty without a body. */
  responseText: string;
  responseHeaders: Record<string, unknown>;
}

type Operation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    { $ref?: string; content?: Record<string, unknown>; headers?: Record<string, { required?: boolean }> }
  >;
};
type Parameter = {
  $ref?: string;
  name: string;
  in: string;
  required?: boolean;
  style?: string;
  schema?: unknown;
  content?: Record<string, { schema: unknown }>;
};

interface Route {
  document: number;
  template: string;
  pattern: RegExp;
  /** Templated segments: the more literal a route, the better it matches. */
  parameters: number;
}

const pointerEscape = (text: string) => text.replaceAll('~', '~0').replaceAll('/', '~1');
/** A media type compared as JSON:API compares them: case and spaces aside, without `profile` (which changes no schema). */
const mediaTypeOf = (value: string | undefined) =>
  value
    ?.replace(/\s+/g, '')
    .toLowerCase()
    .replace(/;profile=("[^"]*"|[^;]*)/, '');
const isJson = (mediaType: string | undefined) => /^application\/([a-z0-9.-]+\+)?json(;|$)/.test(mediaType ?? '');

/**
 * The documented request media type the request's matches: the same type, else (a server reads every
 * `+json` type as JSON) the document's plain JSON one.
 */
function requestMediaType(documented: readonly string[], sent: string | undefined): string | undefined {
  const exact = documented.find((candidate) => mediaTypeOf(candidate) === mediaTypeOf(sent));
  return (
    exact ??
    (isJson(mediaTypeOf(sent))
      ? documented.find((candidate) => mediaTypeOf(candidate) === 'application/json')
      : undefined)
  );
}

function ajvErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map(
      (error) =>
        `${error.instancePath || '/'} ${error.message} ${JSON.stringify(error.params)}, got ${JSON.stringify(error.data)?.slice(0, 80)}`,
    )
    .join('; ');
}

/**
 * `filter[a][b$op]=x` → `{ a: { b$op: 'x' } }` for a deepObject parameter. Objects without a
 * prototype, so a hostile key (`filter[__proto__][x]`) is an own member, never a prototype.
 */
function deepObject(entries: ReadonlyArray<[string[], string]>): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null);
  for (const [keys, value] of entries) {
    let node = root;
    keys.forEach((key, index) => {
      if (index === keys.length - 1) node[key] = value;
      else
        node = (node[key] =
          typeof node[key] === 'object' && node[key] !== null ? node[key] : Object.create(null)) as Record<
          string,
          unknown
        >;
    });
  }
  return root;
}

/**
 * Checks exchanges against OpenAPI documents: the response (status, Content-Type, body, required
 * headers) must be one the document describes, and a request the document refuses (query
 * parameters, body) must have been refused (4xx). Validators are compiled once per schema.
 */
export class OpenApiContract {
  private readonly routes: Route[];
  private readonly bases: string[];
  private readonly ajv: InstanceType<typeof Ajv2020>;
  /** Query parameters arrive as strings: their own instance, made for the first one checked. */
  private coercingAjv?: InstanceType<typeof Ajv2020>;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly documents: readonly OpenApiDocument[]) {
    this.ajv = this.withDocuments(AJV_OPTIONS);
    this.routes = documents.flatMap((document, index) =>
      Object.keys(document.paths).map((template) => ({
        document: index,
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        parameters: (template.match(/\{/g) ?? []).length,
      })),
    );
    this.bases = documents.map((document) => commonBase(Object.keys(document.paths)));
  }

  /** What is wrong with the exchange according to the documents, or undefined. */
  check(exchange: Exchange): string | undefined {
    const [path, query = ''] = exchange.url.split('?', 2) as [string, string?];
    const document = this.bases.findIndex((base) => path === base || path.startsWith(`${base}/`));
    if (document < 0) return undefined;
    const route = this.routes
      .filter((candidate) => candidate.document === document && candidate.pattern.test(path))
      .sort((a, b) => a.parameters - b.parameters)[0];
    const method = exchange.method.toLowerCase();
    const item = route && this.documents[document]!.paths[route.template];
    const operation = item?.[method] as Operation | undefined;
    const where = `${exchange.method} ${exchange.url.slice(0, 200)} → ${exchange.status}`;
    if (!route || !operation) {
      // A route the document does not have must not answer success: the document would be missing it.
      return exchange.status < 400 || exchange.status >= 500
        ? `${where}: no such operation in the document, yet answered ${exchange.status}`
        : undefined;
    }
    const pointer = `doc${document}#/paths/${pointerEscape(route.template)}/${method}`;
    const requestProblem = this.boundedRequestProblem(
      document,
      operation,
      [...((item.parameters as Parameter[]) ?? []), ...(operation.parameters ?? [])],
      pointer,
      query,
      exchange,
    );
    if (requestProblem && exchange.status < 400)
      return `${where}: the document refuses the request (${requestProblem}), yet it succeeded`;
    return this.responseProblem(operation, pointer, exchange, where);
  }

  private responseProblem(
    operation: Operation,
    pointer: string,
    exchange: Exchange,
    where: string,
  ): string | undefined {
    const key = String(exchange.status);
    let response = operation.responses[key];
    if (!response)
      return `${where}: status ${exchange.status} is not documented (${Object.keys(operation.responses).join(', ')})`;
    let responsePointer = `${pointer}/responses/${key}`;
    if (response.$ref) {
      responsePointer = `${pointer.split('#')[0]}${response.$ref}`;
      response = this.resolve(response.$ref, pointer) as typeof response;
    }
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      if (header.required && exchange.responseHeaders[name.toLowerCase()] === undefined)
        return `${where}: required header ${name} is missing`;
    }
    const content = response.content;
    if (!content) return exchange.responseText ? `${where}: a body where the document has none` : undefined;
    // 431 comes from the HTTP server before any route: Node's parser sends it without a body (Express).
    if (exchange.status === 431 && !exchange.responseText) return undefined;
    const mediaType = Object.keys(content).find(
      (candidate) => mediaTypeOf(candidate) === mediaTypeOf(exchange.responseContentType),
    );
    if (!mediaType)
      return `${where}: Content-Type ${exchange.responseContentType} is not documented (${Object.keys(content).join(', ')})`;
    const validate = this.validator(this.ajv, `${responsePointer}/content/${pointerEscape(mediaType)}/schema`);
    const body = exchange.responseText ? JSON.parse(exchange.responseText) : undefined;
    return validate(body) ? undefined : `${where}: the body does not match the document: ${ajvErrors(validate.errors)}`;
  }

  /** The schemas are recursive (where, include): arguments nested past the validator's stack are refused as unreadable. */
  private boundedRequestProblem(...args: Parameters<OpenApiContract['requestProblem']>): string | undefined {
    try {
      return this.requestProblem(...args);
    } catch (error) {
      if (error instanceof RangeError) return 'nested too deeply to check against the document';
      throw error;
    }
  }

  private requestProblem(
    document: number,
    operation: Operation,
    parameters: Parameter[],
    pointer: string,
    query: string,
    exchange: Exchange,
  ): string | undefined {
    const resolved = parameters.map((parameter) =>
      parameter.$ref ? (this.resolve(parameter.$ref, pointer) as Parameter) : parameter,
    );
    const queryParameters = resolved.filter((parameter) => parameter.in === 'query');
    const seen = new Map<string, Array<[string[], string]>>();
    for (const [name, value] of new URLSearchParams(query)) {
      const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
      const parameter = match && queryParameters.find((candidate) => candidate.name === match[1]);
      // Both interfaces ignore implementation-specific names (a character outside a-z before any
      // `[`: a cache buster), which OpenAPI cannot list (docs/rest.md, docs/rpc.md), except the
      // ones they document (`withDeleted`).
      if (!parameter && /[^a-z]/.test(name.split('[', 1)[0]!) && name.split('[', 1)[0] !== '') continue;
      if (!parameter || (parameter.style !== 'deepObject' && match[2])) return `unknown query parameter ${name}`;
      const keys = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!);
      seen.set(parameter.name, [...(seen.get(parameter.name) ?? []), [keys, value]]);
    }
    for (const parameter of queryParameters) {
      const values = seen.get(parameter.name);
      if (!values) {
        if (parameter.required) return `missing query parameter ${parameter.name}`;
        continue;
      }
      const index = resolved.indexOf(parameter);
      const at = parameter === parameters[index] ? undefined : parameters[index]!.$ref;
      const base = at
        ? `doc${document}${at}`
        : `${pointer}/parameters/${(operation.parameters ?? []).indexOf(parameter)}`;
      let value: unknown;
      let schemaPointer: string;
      if (parameter.content) {
        try {
          value = JSON.parse(values[0]![1]);
        } catch {
          return `${parameter.name} is not JSON`;
        }
        schemaPointer = `${base}/content/${pointerEscape(Object.keys(parameter.content)[0]!)}/schema`;
      } else {
        value = parameter.style === 'deepObject' ? deepObject(values) : values[0]![1];
        schemaPointer = `${base}/schema`;
      }
      if (values.length > 1 && parameter.style !== 'deepObject') return `${parameter.name} given more than once`;
      const validate = this.validator(parameter.content ? this.ajv : this.coercing(), schemaPointer);
      if (!validate(value)) return `${parameter.name}: ${ajvErrors(validate.errors)}`;
    }
    if (operation.requestBody) {
      const mediaType = requestMediaType(Object.keys(operation.requestBody.content), exchange.requestContentType);
      if (exchange.requestBody === undefined) return operation.requestBody.required ? 'no body' : undefined;
      if (!mediaType) return `Content-Type ${exchange.requestContentType} is not documented`;
      const validate = this.validator(this.ajv, `${pointer}/requestBody/content/${pointerEscape(mediaType)}/schema`);
      if (!validate(exchange.requestBody)) return `body: ${ajvErrors(validate.errors)}`;
    }
    return undefined;
  }

  /** A JSON pointer of the document (`#/components/...`) resolved to its value. */
  private resolve(ref: string, pointer: string): unknown {
    const document = this.documents[Number(pointer.slice(3, pointer.indexOf('#')))]!;
    return ref
      .slice(2)
      .split('/')
      .reduce<any>((node, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  }

  private withDocuments(options: Options): InstanceType<typeof Ajv2020> {
    const ajv = addFormats(new Ajv2020(options));
    this.documents.forEach((document, index) => ajv.addSchema(document as object, `doc${index}`));
    return ajv;
  }

  private coercing(): InstanceType<typeof Ajv2020> {
    return (this.coercingAjv ??= this.withDocuments({ ...AJV_OPTIONS, coerceTypes: true }));
  }

  private validator(ajv: InstanceType<typeof Ajv2020>, schemaPointer: string): ValidateFunction {
    const key = `${ajv === this.ajv ? 'strict' : 'coerce'} ${schemaPointer}`;
    let validate = this.compiled.get(key);
    if (!validate) this.compiled.set(key, (validate = ajv.compile({ $ref: schemaPointer })));
    return validate;
  }
}

/** The longest path prefix (whole segments) every path of a document shares: its mount. */
function commonBase(paths: readonly string[]): string {
  const split = paths.map((path) => path.split('/'));
  const first = split[0] ?? [];
  let length = 0;
  while (
    length < first.length - 1 &&
    split.every((segments) => segments[length] === first[length] && !first[length]!.startsWith('{'))
  )
    length++;
  return first.slice(0, length).join('/');
}
