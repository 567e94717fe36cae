import type { INestApplication } from '@nestjs/common';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, headless (no browser download: CI installs the `chromium` package). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
}

/** Starts the app on a free loopback port; its origin (`http://127.0.0.1:port`). */
export async function listenOnLoopback(app: INestApplication): Promise<string> {
  await app.listen(0, '127.0.0.1');
  return (await app.getUrl()).replace('[::1]', '127.0.0.1');
}

const PAGE_HTML =
  '<!doctype html><html><head><meta charset="utf-8"></head><body><div id="root"></div><script type="module" src="/page.js"></script></body></html>';

/** Serves a page at `/` running `script` (Express), beside the module's APIs. */
export function servePage(app: INestApplication, script: string): void {
  const http = app.getHttpAdapter().getInstance() as {
    get(path: string, handler: (req: unknown, res: { type(type: string): { send(body: string): void } }) => void): void;
  };
  http.get('/', (_req, res) => res.type('html').send(PAGE_HTML));
  http.get('/page.js', (_req, res) => res.type('text/javascript').send(script));
}
