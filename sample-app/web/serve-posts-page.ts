import { resolve } from 'node:path';

import type { INestApplication } from '@nestjs/common';

import { bundleForBrowser } from '../../fixtures/browser-bundle.js';

// From the repository root, where `npm start` and the tests run.
const PAGE_ENTRY = resolve('sample-app/web/posts-page.ts');
const HTML =
  '<!doctype html><html><head><meta charset="utf-8"><title>Posts</title></head><body><div id="root"></div><script type="module" src="/posts-page.js"></script></body></html>';

/** The page's browser bundle, built as a production app would (minified, React's production build). */
export function bundlePostsPage(entry = PAGE_ENTRY): Promise<string> {
  return bundleForBrowser(entry);
}

/** Serves the page at `/` and its bundle at `/posts-page.js` (Express), beside the module's APIs. */
export function servePostsPage(app: INestApplication, script: string): void {
  app.use(
    (
      req: { method: string; url: string },
      res: { setHeader(name: string, value: string): void; end(body: string): void },
      next: () => void,
    ) => {
      if (req.method !== 'GET') return next();
      if (req.url === '/') return (res.setHeader('Content-Type', 'text/html; charset=utf-8'), res.end(HTML));
      if (req.url === '/posts-page.js')
        return (res.setHeader('Content-Type', 'text/javascript; charset=utf-8'), res.end(script));
      next();
    },
  );
}
