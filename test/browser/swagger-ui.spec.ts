import os from 'node:os';
import path from 'node:path';

import { type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import type { Browser, Page } from 'playwright-core';

import { launchChromium, listenOnLoopback } from '../support/browser.js';
import { type TestAppHandle, useTestApp, type UseTestAppOptions } from '../support/test-app.js';

/**
 * Where the run saves its screenshots (the page, and a "Try it out" answer): a temporary folder, so
 * `npm test` leaves the work tree clean; `UPDATE_SCREENSHOTS=1` writes the ones docs/openapi.md shows.
 */
const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/images') : os.tmpdir();
const SCREENSHOTS = {
  page: path.join(SCREENSHOT_DIR, 'swagger-ui.png'),
  tryItOut: path.join(SCREENSHOT_DIR, 'swagger-ui-try-it-out.png'),
};

const seedPost = async ({ db }: TestAppHandle) => {
  const author = await db.prisma.user.create({ data: { email: 'demo@x.test', name: 'Demo' } });
  await db.prisma.post.create({ data: { title: 'Hello from the database', authorId: author.id } });
};

/** The fixture's models but the module's own (IdempotencyKey, HistoryEntry, RateLimitBucket). */
const EXPOSED = ['User', 'Profile', 'Tag', 'Post', 'Comment', 'Like', 'AuditEntry', 'OutboxEntry'];

/** The `GET /api/rest/post` operation block of the page. */
const listOperation = (page: Page) =>
  page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/api/rest/post"]') });

/**
 * For the enclosing describe block: the module with `options` on SQLite, one post in it, listening
 * on loopback; and headless Debian Chromium to open pages on it.
 */
function useSwaggerUi(options: UseTestAppOptions['options']) {
  let browser: Browser | undefined;
  let origin = '';
  // Declared first, so it runs before the application closes.
  afterAll(() => browser?.close());
  // The history's model is the module's own, as in an application that records history, and so are
  // the rate limits' buckets (not exposed): with nine models of the fixture described, Swagger UI 5
  // stops rendering the REST operations after the first tag's sixteenth (no error on the page; eight
  // render in ~10 s).
  const t = useTestApp('sqlite', {
    options: { history: { model: 'HistoryEntry' }, models: EXPOSED, ...options },
    seed: seedPost,
  });
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
  }, 60_000);
  return {
    origin: () => origin,
    newPage: () => browser!.newPage({ viewport: { width: 1280, height: 1000 } }),
  };
}

// Swagger UI as the module serves it (swagger-ui-dist, no CDN), in headless Debian Chromium, against the module on SQLite.
describe('Swagger UI', () => {
  const ui = useSwaggerUi({ openapi: { title: 'Sample blog API' } });

  it('loads offline from the app, lists a model’s operations, and "Try it out" answers 200', async () => {
    const origin = ui.origin();
    const page = await ui.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(origin)) problems.push(`left the app: ${request.url()}`);
    });
    await page.goto(`${origin}/api/docs`);
    await page.locator('.information-container .title', { hasText: 'Sample blog API' }).waitFor();

    const list = listOperation(page);
    await list.waitFor();
    const postOperations = await page.locator('[id^="operations-post-"] .opblock-summary-path').allTextContents();
    expect(postOperations).toEqual(
      expect.arrayContaining(['/api/rest/post', '/api/rest/post/{id}', '/api/rest/post/{id}/author']),
    );
    await page.screenshot({ path: SCREENSHOTS.page });

    await list.locator('.opblock-summary').click();
    await list.locator('button.try-out__btn').click();
    await list.locator('button.execute').click();
    const status = list.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor({ timeout: 15_000 });
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await list.locator('.live-responses-table').first().textContent()).toContain('Hello from the database');

    await status.scrollIntoViewIfNeeded();
    await page.screenshot({ path: SCREENSHOTS.tryItOut });
    expect(problems).toEqual([]);
  }, 60_000);
});

const TOKEN = 'token-for-the-guard';

/** Lets a request through with the bearer token only (403 otherwise). */
@Injectable()
class BearerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.switchToHttp().getRequest().headers.authorization === `Bearer ${TOKEN}`;
  }
}

describe('Swagger UI with a bearer security scheme', () => {
  const ui = useSwaggerUi({
    restDecorators: [UseGuards(BearerGuard)],
    rpcDecorators: [UseGuards(BearerGuard)],
    openapi: { title: 'Guarded blog API', securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  });

  it('has Authorize, and "Try it out" then sends the token as Authorization: Bearer, past the guard', async () => {
    const origin = ui.origin();
    const page = await ui.newPage();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const list = listOperation(page);
    const execute = async () => {
      const answer = page.waitForResponse((response) => response.url().startsWith(`${origin}/api/rest/post`));
      await list.locator('button.execute').click();
      const response = await answer;
      return { status: response.status(), authorization: response.request().headers().authorization };
    };
    await page.goto(`${origin}/api/docs`);
    await page.locator('.information-container .title', { hasText: 'Guarded blog API' }).waitFor();
    await list.locator('.opblock-summary').click();
    await list.locator('button.try-out__btn').click();
    expect(await execute()).toEqual({ status: 403, authorization: undefined });

    await page.locator('.auth-wrapper button.authorize').click();
    await page.locator('.modal-ux input[aria-label="auth-bearer-value"]').fill(TOKEN);
    await page.locator('.modal-ux button.modal-btn.authorize').click();
    await page.locator('.modal-ux button.btn-done').click();
    expect(await execute()).toEqual({ status: 200, authorization: `Bearer ${TOKEN}` });
    expect(await list.locator('.live-responses-table').first().textContent()).toContain('Hello from the database');
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
