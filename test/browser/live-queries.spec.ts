import { resolve } from 'node:path';

import type { Browser, Page } from 'playwright-core';

import { bundleForBrowser } from '../../fixtures/browser-bundle.js';
import { LiveQueries } from '../../lib/changes/live-queries.js';
import { launchChromium, listenOnLoopback, servePage } from '../support/browser.js';
import { eventually } from '../support/eventually.js';
import { useTestApp } from '../support/test-app.js';

/** What one page asked the server for: its reads of the posts, streamed or not. */
interface PageRequests {
  rpcStreams: number;
  rpcReads: number;
  restStreams: number;
  restReads: number;
}

/** Opens the page, counting its requests for the posts by interface and kind. */
async function openPage(browser: Browser, origin: string) {
  const page = await browser.newPage();
  const requests: PageRequests = { rpcStreams: 0, rpcReads: 0, restStreams: 0, restReads: 0 };
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('request', (request) => {
    if (request.method() !== 'GET') return;
    const { pathname } = new URL(request.url());
    const api = pathname === '/api/rpc/post/findMany' ? 'rpc' : pathname === '/api/rest/post' ? 'rest' : undefined;
    if (!api) return;
    const stream = request.headers()['accept'] === 'text/event-stream';
    requests[`${api}${stream ? 'Streams' : 'Reads'}`]++;
  });
  await page.goto(`${origin}/`);
  return { page, requests, problems };
}

const titles = (page: Page, list: string) => page.locator(`#${list} li`).allTextContents();
const LISTS = ['rpc-posts', 'rpc-posts-again', 'rest-posts'];

/** Waits until every list of the page shows `title`. */
async function showsEverywhere(page: Page, title: string): Promise<void> {
  for (const list of LISTS) await page.locator(`#${list} li`, { hasText: title }).waitFor({ timeout: 10_000 });
}

// Live queries end to end: the client's hooks in two headless Chromium pages, the module on SQLite.
describe('Live queries in the browser', () => {
  let script = '';
  let browser: Browser | undefined;
  let origin = '';
  afterAll(() => browser?.close());
  beforeAll(async () => {
    script = await bundleForBrowser(resolve('test/browser/live-queries-page.ts'));
  }, 60_000);
  const t = useTestApp('sqlite', {
    options: { live: {} },
    configure: (app) => servePage(app, script),
    seed: async ({ db }) => {
      const author = await db.prisma.user.create({ data: { id: 1, email: 'demo@x.test', name: 'Demo' } });
      await db.prisma.post.create({ data: { title: 'seeded', authorId: author.id } });
    },
  });
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
  }, 60_000);

  it('shows a write of one page in the other without reloading it', async () => {
    const a = await openPage(browser!, origin);
    const b = await openPage(browser!, origin);
    for (const { page } of [a, b]) await showsEverywhere(page, 'seeded');

    await a.page.fill('input[name=title]', 'from page A');
    await a.page.click('button[type=submit]');
    await showsEverywhere(b.page, 'from page A');

    const created = await t
      .http()
      .post('/api/rest/post')
      .set('Content-Type', 'application/vnd.api+json')
      .send({
        data: {
          type: 'post',
          attributes: { title: 'over HTTP' },
          relationships: { author: { data: { type: 'user', id: '1' } } },
        },
      });
    expect(created.status).toBe(201);
    for (const { page } of [a, b]) await showsEverywhere(page, 'over HTTP');

    for (const list of LISTS) expect(await titles(b.page, list)).toEqual(['seeded', 'from page A', 'over HTTP']);
    // Page B read each list once; the streams brought the rest. Both RPC lists share one stream.
    expect(b.requests).toEqual({ rpcStreams: 1, rpcReads: 1, restStreams: 1, restReads: 1 });
    expect([...a.problems, ...b.problems]).toEqual([]);
    await Promise.all([a.page.close(), b.page.close()]);
  });

  it('closes the streams of a page with the last list that reads them, or with the page', async () => {
    const subscribers = () => t.app.get(LiveQueries).size;
    await eventually(() => expect(subscribers()).toBe(0));
    const a = await openPage(browser!, origin);
    const b = await openPage(browser!, origin);
    for (const { page } of [a, b]) await showsEverywhere(page, 'seeded');
    // Two streams a page, RPC and REST, while it shows the lists.
    await eventually(() => expect(subscribers()).toBe(4));
    await b.page.uncheck('input[name=shown]');
    await eventually(() => expect(subscribers()).toBe(2));
    await b.page.check('input[name=shown]');
    await eventually(() => expect(subscribers()).toBe(4));
    await a.page.close();
    await eventually(() => expect(subscribers()).toBe(2));
    await b.page.close();
  });
});
