import { readFile } from 'node:fs/promises';
import path from 'node:path';

import swaggerUiDistFolder from 'swagger-ui-dist/absolute-path.js';

/** The files of swagger-ui-dist the page loads, with their media types. */
const ASSET_TYPES: ReadonlyMap<string, string> = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['index.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
  ['favicon-16x16.png', 'image/png'],
]);

/** The name of the script that starts Swagger UI (ours, not the package's). */
export const INITIALIZER = 'initializer.js';

export interface Asset {
  contentType: string;
  body: Buffer;
}

const cache = new Map<string, Promise<Asset>>();

/** One of swagger-ui-dist's files, read once; undefined for any other name. */
export function swaggerUiAsset(name: string): Promise<Asset> | undefined {
  const contentType = ASSET_TYPES.get(name);
  if (!contentType) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = readFile(path.join(swaggerUiDistFolder(), name)).then((body) => ({ contentType, body }));
    cache.set(name, asset);
  }
  return asset;
}

/** The page, its assets under `{base}/swagger-ui/`; `base` is the path it is served at. */
export function swaggerUiPage(base: string, title: string): Asset {
  const assets = `${base}/swagger-ui`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${assets}/swagger-ui.css">
<link rel="stylesheet" href="${assets}/index.css">
<link rel="icon" type="image/png" href="${assets}/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script src="${assets}/swagger-ui-standalone-preset.js"></script>
<script src="${assets}/${INITIALIZER}"></script>
</body>
</html>
`;
  return { contentType: 'text/html; charset=utf-8', body: Buffer.from(html) };
}

/**
 * Starts Swagger UI on both documents (a separate script, so a Content-Security-Policy without
 * 'unsafe-inline' still allows it); the documents' URLs are found from the script's own URL.
 */
export function swaggerUiInitializer(documents: ReadonlyArray<{ file: string; name: string }>): Asset {
  const script = `(() => {
  const src = document.currentScript.src;
  const base = src.slice(0, src.lastIndexOf('/swagger-ui/'));
  window.ui = SwaggerUIBundle({
    urls: ${JSON.stringify(documents)}.map(({ file, name }) => ({ url: base + '/' + file, name })),
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
})();
`;
  return { contentType: 'text/javascript; charset=utf-8', body: Buffer.from(script) };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
