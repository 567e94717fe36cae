import { type Browser, chromium } from 'playwright-core';

import { bundlePostsPage, servePostsPage } from '../../sample-app/web/serve-posts-page.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The sample page's React hooks in headless Chromium (Debian's /usr/bin/chromium), against the module on SQLite.
describe('RPC client hooks in a browser page', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    const script = await bundlePostsPage();
    t = await createTestApp('sqlite', { configure: (app) => servePostsPage(app, script) });
    const author = await t.db.prisma.user.create({ data: { id: 1, email: 'demo@x.test', name: 'Demo' } });
    await t.db.prisma.post.createMany({ data: ['first', 'second'].map((title) => ({ title, authorId: author.id })) });
    await t.app.listen(0, '127.0.0.1');
    origin = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the list, and a mutation invalidates it so the new row appears', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    const items = page.locator('#posts li');
    await items.first().waitFor();
    expect(await items.allTextContents()).toEqual(['second — Demo', 'first — Demo']);

    await page.fill('input[name=title]', 'from the browser');
    await page.click('button[type=submit]');
    await page.locator('#posts li', { hasText: 'from the browser — Demo' }).waitFor({ timeout: 10_000 });
    expect(await items.allTextContents()).toEqual(['from the browser — Demo', 'second — Demo', 'first — Demo']);
    expect(await page.inputValue('input[name=title]')).toBe('');
    expect(await t.db.prisma.post.count({ where: { title: 'from the browser', authorId: 1 } })).toBe(1);
    expect(errors).toEqual([]);
  });

  it('keeps a post added offline across a reload, and sends it once when the connection is back', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${origin}/`);
    await page.locator('#posts li').first().waitFor();
    const cdp = await page.context().newCDPSession(page);
    const network = (offline: boolean) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    await cdp.send('Network.enable');
    await network(true);
    await page.fill('input[name=title]', 'written offline');
    await page.click('button[type=submit]');
    // Shown at once, and waiting in the queue.
    await page.locator('#posts li', { hasText: 'written offline — not sent yet' }).waitFor();
    await page.locator('#queue', { hasText: '1 change(s) waiting' }).waitFor();
    expect(await t.db.prisma.post.count({ where: { title: 'written offline' } })).toBe(0);

    // The page loads again (the server serves it) while the API stays out of reach.
    await page.route('**/api/rpc/**', (route) => route.abort('internetdisconnected'));
    await network(false);
    await page.reload();
    await page.locator('#posts li', { hasText: 'written offline — not sent yet' }).waitFor();
    await page.unroute('**/api/rpc/**');
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await page.locator('#posts li', { hasText: 'written offline — Demo' }).waitFor({ timeout: 10_000 });
    await page.locator('#queue').waitFor({ state: 'detached' });
    expect(await t.db.prisma.post.count({ where: { title: 'written offline' } })).toBe(1);
    expect(errors).toEqual([]);
  });
});
