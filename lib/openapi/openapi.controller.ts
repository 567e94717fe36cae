import {
  applyDecorators,
  Controller,
  Get,
  Inject,
  NotFoundException,
  Param,
  Req,
  Res,
  type Type,
} from '@nestjs/common';

import { type PlatformResponse, sendBytes } from '../shared/api-response.js';
import type { NestMount } from '../shared/nest-route-paths.js';
import { CrudApiOpenApi } from './crud-api-openapi.service.js';
import type { OpenApiInterface } from './openapi-documents.js';
import { excludeFromSwaggerScan } from './swagger-scan.js';
import { INITIALIZER, swaggerUiAsset, swaggerUiInitializer, swaggerUiPage } from './swagger-ui-assets.js';

const DOCUMENT_FILES: Readonly<Record<string, OpenApiInterface>> = { 'rest.json': 'rest', 'rpc.json': 'rpc' };

/** The documents' route, relative to the `openapi.path`. */
export const OPENAPI_DOCUMENT_ROUTE = ':file';

/**
 * Serves `{path}/rest.json`, `{path}/rpc.json` and, unless `ui: false`, Swagger UI at `{path}`
 * with its assets under `{path}/swagger-ui/`. Answers are cached bytes: the documents never change.
 */
export class OpenApiController {
  private readonly rendered = new Map<string, Buffer>();

  constructor(@Inject(CrudApiOpenApi) private readonly openApi: CrudApiOpenApi) {}

  @Get()
  page(@Req() req: { url: string; originalUrl?: string }, @Res() res: PlatformResponse): void {
    this.requireUi();
    const path = (req.originalUrl ?? req.url).split('?')[0]!.replace(/\/+$/, '');
    const { contentType, body } = swaggerUiPage(path, this.openApi.openapi.title);
    sendBytes(res, 200, { 'Content-Type': contentType }, body);
  }

  @Get(`swagger-ui/:file`)
  async asset(@Param('file') file: string, @Res() res: PlatformResponse): Promise<void> {
    this.requireUi();
    const asset =
      file === INITIALIZER
        ? swaggerUiInitializer(
            Object.entries(DOCUMENT_FILES).map(([name, kind]) => ({
              file: name,
              name: this.openApi.document(kind).info.title,
            })),
          )
        : await swaggerUiAsset(file);
    if (!asset) throw new NotFoundException();
    sendBytes(res, 200, { 'Content-Type': asset.contentType, 'Cache-Control': 'public, max-age=3600' }, asset.body);
  }

  @Get(OPENAPI_DOCUMENT_ROUTE)
  documentFile(@Param('file') file: string, @Res() res: PlatformResponse): void {
    const kind = Object.hasOwn(DOCUMENT_FILES, file) ? DOCUMENT_FILES[file] : undefined;
    if (!kind) throw new NotFoundException();
    let body = this.rendered.get(kind);
    if (!body) this.rendered.set(kind, (body = Buffer.from(JSON.stringify(this.openApi.document(kind)))));
    sendBytes(res, 200, { 'Content-Type': 'application/json' }, body);
  }

  private requireUi(): void {
    if (!this.openApi.openapi.ui) throw new NotFoundException();
  }
}

/**
 * The controller of one instance, mounted at its `openapi.path` with the instance's `version`, if
 * any, and the application's `decorators` (`@Public()`...).
 */
export function mountOpenApiController(
  { path, version }: NestMount,
  decorators: readonly ClassDecorator[] = [],
): Type<OpenApiController> {
  const Mounted = class extends OpenApiController {};
  Controller({ path, version })(Mounted);
  excludeFromSwaggerScan(Mounted);
  applyDecorators(...decorators)(Mounted);
  return Mounted;
}
