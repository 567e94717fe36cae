import os from 'node:os';
import path from 'node:path';

import type { Browser } from 'playwright-core';

import { launchChromium, listenOnLoopback } from '../support/browser.js';
import { useTestApp } from '../support/test-app.js';

/**
 * Where the run saves its screenshots (the page, and a "Try it out" answer): a temporary folder, so
 * `npm test` leaves the work tree clean; `UPDATE_SCREENSHOTS=1` writes the ones docs/openapi.md shows.
 */
const SCREENSHOT_DIR = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve('docs/images') : os.tmpdir();
const SCREENSHOTS = {
  page: path.join(SCREENSHOT_DIR, 'swagger-ui.png'),
  tryItOut: path.join(SCREENSHOT_DIR, 'swagger-ui-try-it-out.png'),
};

// Swagger UI as the module serves it (swagger-ui-dist, no CDN), in headless Debian Chromium, against the module on SQLite.
describe('Swagger UI', () => {
  let browser: Browser;
  let origin: string;
  // Declared first, so it runs before the application closes.
  afterAll(() => browser?.close());

  const t = useTestApp('sqlite', {
    options: { openapi: { title: 'Sample blog API' } },
    seed: async ({ db }) => {
      const author = await db.prisma.user.create({ data: { email: 'demo@x.test', name: 'Demo' } });
      await db.prisma.post.create({ data: { title: 'Hello from the database', authorId: author.id } });
    },
  });
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
  }, 60_000);

  it('loads offline from the app, lists a model’s operations, and "Try it out" answers 200', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
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

    const list = page.locator('.opblock-get', {
      has: page.locator('.opblock-summary-path[data-path="/api/rest/post"]'),
    });
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
