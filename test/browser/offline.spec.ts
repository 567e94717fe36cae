import type { Server } from 'node:http';
import { resolve } from 'node:path';

import type { Browser, BrowserContext, CDPSession, Page, Request } from 'playwright-core';

import { bundleForBrowser } from '../../fixtures/browser-bundle.js';
import { launchChromium, listenOnLoopback, servePage } from '../support/browser.js';
import { eventually } from '../support/eventually.js';
import { OFFLINE_APP_OPTIONS } from '../support/offline-app.js';
import { useTestApp } from '../support/test-app.js';

/** A request of the page to the RPC interface, and how it ended. */
interface RpcExchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The status the page got; undefined while it runs, or when it failed. */
  status?: number;
  failed?: string;
}

/** The offline client's page in its own browser context (its own IndexedDB), with the network at the test's command. */
interface OfflinePage {
  page: Page;
  /** Every request to `/api/rpc`, in order. */
  exchanges: RpcExchange[];
  /** The page's uncaught errors. */
  problems: string[];
  /** Takes the network down or brings it back (DevTools protocol: `navigator.onLine` and its events follow). */
  online(on: boolean): Promise<void>;
  /** Reloads the page, and waits for its list of posts (from the persisted cache or the server). */
  reload(): Promise<void>;
}

/** An Int placeholder of a row created offline lies below every 32-bit integer. */
const BELOW_INT32 = -(2 ** 31);

/** Long enough for a write the queue would wrongly send to reach the database. */
const quiet = () => new Promise((done) => setTimeout(done, 600));

// The offline client in Chromium: writes queued in IndexedDB while the network is down, across
// reloads, replayed once it is back; reads answered from the persisted TanStack cache.
describe('Offline client in the browser', () => {
  let script = '';
  let browser: Browser | undefined;
  let origin = '';
  let authorId = 0;
  afterAll(() => browser?.close());
  beforeAll(async () => {
    script = await bundleForBrowser(resolve('test/browser/offline-page.ts'));
  }, 60_000);
  const t = useTestApp('sqlite', {
    // The page acts as user 1 (x-user-id), who may rename only the posts it wrote.
    options: { ...OFFLINE_APP_OPTIONS, live: { debounce: 5 } },
    configure: (app) => servePage(app, script),
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { id: 1, email: 'demo@x.test', name: 'Demo' } })).id;
    },
  });
  beforeAll(async () => {
    origin = await listenOnLoopback(t.app);
    browser = await launchChromium();
  }, 60_000);
  /** The pages of the running test: closed after it, whether it passed or not. */
  const openPages: Page[] = [];
  afterEach(async () => {
    await Promise.all(openPages.splice(0).map((page) => page.close()));
  });
  beforeEach(async () => {
    await t.db.prisma.comment.deleteMany();
    await t.db.prisma.post.deleteMany();
    await t.db.prisma.post.create({ data: { title: 'seeded', authorId } });
  });

  const dbTitles = async () => (await t.db.prisma.post.findMany({ orderBy: { id: 'asc' } })).map((post) => post.title);

  /**
   * Opens the page in a new context. Its shell (`/` and `/page.js`) is served through `page.route`
   * from the copy the server gave on the first load, as an application's service worker would
   * serve it from its cache: so a reload works while the network is down (the DevTools protocol's
   * offline mode fails every request that leaves the browser, but routed requests do not leave it).
   * The RPC requests are never routed here: they reach the server, or fail offline.
   */
  async function openPage(search = '', context?: BrowserContext): Promise<OfflinePage> {
    const page = await (context ?? browser!).newPage();
    openPages.push(page);
    const problems: string[] = [];
    const exchanges: RpcExchange[] = [];
    const byRequest = new Map<Request, RpcExchange>();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith('/api/rpc/')) return;
      const exchange = { method: request.method(), path: url.pathname, headers: request.headers() };
      exchanges.push(exchange);
      byRequest.set(request, exchange);
    });
    page.on('response', (response) => {
      const exchange = byRequest.get(response.request());
      if (exchange) exchange.status = response.status();
    });
    page.on('requestfailed', (request) => {
      const exchange = byRequest.get(request);
      if (exchange) exchange.failed = request.failure()?.errorText ?? 'failed';
    });
    const shell = new Map<string, { body: Buffer; contentType: string }>();
    for (const path of [`/${search}`, '/page.js']) {
      await page.route(`${origin}${path}`, async (route) => {
        let kept = shell.get(path);
        if (!kept) {
          const response = await route.fetch();
          kept = { body: await response.body(), contentType: response.headers()['content-type']! };
          shell.set(path, kept);
        }
        await route.fulfill({ body: kept.body, contentType: kept.contentType });
      });
    }
    const cdp: CDPSession = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const shown = () => page.locator('#posts > li').first().waitFor({ timeout: 10_000 });
    await page.goto(`${origin}/${search}`);
    await shown();
    return {
      page,
      exchanges,
      problems,
      online: async (on) => {
        const type = on ? 'online' : 'offline';
        await page.evaluate((name) => {
          (window as { connection?: Promise<void> }).connection = new Promise((fired) =>
            addEventListener(name, () => fired(), { once: true }),
          );
        }, type);
        await cdp.send('Network.emulateNetworkConditions', {
          offline: !on,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: -1,
        });
        // The emulation is what the page's code sees of the connection: the queue waits on it, and its event.
        await page.evaluate(() => (window as { connection?: Promise<void> }).connection);
        expect(await page.evaluate(() => navigator.onLine)).toBe(on);
      },
      reload: async () => {
        await page.reload();
        await shown();
      },
    };
  }

  const titles = (page: Page) => page.locator('#posts > li > .title').allTextContents();
  /** The pending count the page shows (`useOfflineQueue`). */
  const pending = (page: Page) => page.locator('#pending').textContent();
  /** The queue itself, once it read what the store kept. */
  const queueOf = (page: Page) => page.evaluate(() => window.offlinePage.queue());
  const postItem = (page: Page, title: string) => page.locator(`#posts > li[data-title=${JSON.stringify(title)}]`);
  /** Submits the form `name` (in `scope`) with `text`. */
  async function submit(page: Page, scope: string, name: string, text: string): Promise<void> {
    const form = page.locator(`${scope} form.${name}`);
    await form.locator('input').fill(text);
    await form.locator('button').click();
  }
  const createPost = (page: Page, title: string) => submit(page, '', 'new-post', title);
  const renamePost = (page: Page, title: string, to: string) =>
    submit(page, `#posts > li[data-title=${JSON.stringify(title)}]`, 'rename', to);
  const commentOn = (page: Page, title: string, body: string) =>
    submit(page, `#posts > li[data-title=${JSON.stringify(title)}]`, 'comment', body);
  const commentsOf = (page: Page, title: string) => postItem(page, title).locator('.comments > li').allTextContents();
  /** Waits until the page's store keeps `key` with `text` in it (the queue, the reads, the persisted queries). */
  const stored = (page: Page, key: string, text: string) =>
    eventually(
      async () => expect(await page.evaluate((name) => window.offlinePage.stored(name), key)).toContain(text),
      5000,
    );
  /** The page's list is the server's: the same titles in the same order, once the reads refetched. */
  const showsTheServer = (page: Page) =>
    eventually(async () => expect(await titles(page)).toEqual(await dbTitles()), 5000);

  it('applies the writes made offline once, after a reload, in order, and the cache ends as the server', async () => {
    const { page, exchanges, problems, online, reload } = await openPage();
    expect(await titles(page)).toEqual(['seeded']);
    await online(false);

    await createPost(page, 'first offline');
    await createPost(page, 'second offline');
    await renamePost(page, 'seeded', 'seeded renamed');
    // Each write shows at once in the cached list; a created post with a placeholder id.
    await eventually(async () =>
      expect(await titles(page)).toEqual(['seeded renamed', 'first offline', 'second offline']),
    );
    const placeholder = Number(await postItem(page, 'first offline').getAttribute('data-id'));
    expect(placeholder).toBeLessThan(BELOW_INT32);
    // Writes naming the posts created offline, by their placeholders from the cached list.
    await commentOn(page, 'first offline', 'on a post made offline');
    await renamePost(page, 'second offline', 'second renamed');
    await eventually(async () => expect(await pending(page)).toBe('5'));
    await eventually(async () => expect(await commentsOf(page, 'first offline')).toEqual(['on a post made offline']));
    await stored(page, 'queries', 'second renamed');

    // A reload while offline: the queue and the cached reads come back from IndexedDB.
    await reload();
    expect(await page.evaluate(() => navigator.onLine)).toBe(false);
    expect(await titles(page)).toEqual(['seeded renamed', 'first offline', 'second renamed']);
    expect(await commentsOf(page, 'first offline')).toEqual(['on a post made offline']);
    // (What `useOfflineQueue` shows after a reload: its own test below.)
    expect(await queueOf(page)).toEqual({ pending: 5, conflict: undefined });
    await quiet();
    expect(await dbTitles()).toEqual(['seeded']);
    expect(exchanges.filter((exchange) => exchange.method !== 'GET')).toEqual([]);

    await online(true);
    await eventually(async () => expect((await queueOf(page)).pending).toBe(0), 10_000);
    expect(await pending(page)).toBe('0');
    expect(await dbTitles()).toEqual(['seeded renamed', 'first offline', 'second renamed']);
    const created = await t.db.prisma.post.findFirstOrThrow({ where: { title: 'first offline' } });
    const comments = await t.db.prisma.comment.findMany();
    expect(comments.map(({ body, postId }) => ({ body, postId }))).toEqual([
      { body: 'on a post made offline', postId: created.id },
    ]);
    await showsTheServer(page);
    await eventually(async () =>
      expect(await postItem(page, 'first offline').getAttribute('data-id')).toBe(String(created.id)),
    );
    expect(await commentsOf(page, 'first offline')).toEqual(['on a post made offline']);
    // Each write was sent once: the network was down until then.
    const writes = exchanges
      .filter((exchange) => exchange.method !== 'GET')
      .map((exchange) => `${exchange.method} ${exchange.path} ${exchange.status}`);
    expect(writes).toEqual([
      'POST /api/rpc/post/create 201',
      'POST /api/rpc/post/create 201',
      'PATCH /api/rpc/post/update 200',
      'POST /api/rpc/comment/create 201',
      'PATCH /api/rpc/post/update 200',
    ]);

    // Another reload, online: nothing is sent again, the list is still the server's.
    await reload();
    await quiet();
    expect(await pending(page)).toBe('0');
    expect(await dbTitles()).toEqual(['seeded renamed', 'first offline', 'second renamed']);
    expect(await t.db.prisma.comment.count()).toBe(1);
    await showsTheServer(page);
    expect(problems).toEqual([]);
  });

  /** The db's title of the one post `seeded` was. */
  const dbTitle = async () => (await t.db.prisma.post.findFirstOrThrow()).title;

  /**
   * The page renames the post offline while the server's version changes; back online, a conflict
   * holds the queue, showing both versions, and nothing is written.
   */
  async function conflict(
    { page, online, reload }: OfflinePage,
    names: { current: string; mine: string; theirs: string },
    { reloadOffline = false } = {},
  ): Promise<void> {
    await online(false);
    await renamePost(page, names.current, names.mine);
    await eventually(async () => expect(await pending(page)).toBe('1'));
    await t.db.prisma.post.updateMany({ data: { title: names.theirs } });
    if (reloadOffline) {
      await stored(page, 'writes', names.mine);
      await reload();
      expect(await titles(page)).toEqual([names.mine]);
    }
    await online(true);
    await page.locator('#conflict').waitFor({ timeout: 5000 });
    expect(await page.locator('#conflict .mine').textContent()).toBe(names.mine);
    expect(await page.locator('#conflict .theirs').textContent()).toBe(names.theirs);
    await quiet();
    expect(await dbTitle()).toBe(names.theirs);
    expect(await pending(page)).toBe('1');
  }

  it('holds a rename conflicting with the server’s until resolved: mine, theirs, or a merge', async () => {
    const tab = await openPage();
    const { page, problems } = tab;

    await conflict(tab, { current: 'seeded', mine: 'mine 1', theirs: 'theirs 1' });
    await page.click('#keep-mine');
    await eventually(async () => expect(await dbTitle()).toBe('mine 1'));
    await eventually(async () => expect(await pending(page)).toBe('0'));
    expect(await page.locator('#conflict').count()).toBe(0);
    await showsTheServer(page);

    // The rename survives a reload before it conflicts.
    await conflict(tab, { current: 'mine 1', mine: 'mine 2', theirs: 'theirs 2' }, { reloadOffline: true });
    await page.click('#keep-theirs');
    await eventually(async () => expect(await pending(page)).toBe('0'));
    await quiet();
    expect(await dbTitle()).toBe('theirs 2');
    // The optimistic rename is rolled back: the list reads the server's version.
    await showsTheServer(page);
    expect(await titles(page)).toEqual(['theirs 2']);

    await conflict(tab, { current: 'theirs 2', mine: 'mine 3', theirs: 'theirs 3' });
    await page.fill('#merged', 'mine 3 + theirs 3');
    await page.click('#merge');
    await eventually(async () => expect(await dbTitle()).toBe('mine 3 + theirs 3'));
    await eventually(async () => expect(await pending(page)).toBe('0'));
    await showsTheServer(page);
    expect(await t.db.prisma.post.count()).toBe(1);
    expect(problems).toEqual([]);
  });

  // What `useOfflineQueue` shows right after a reload, before the queue has anything new to report.
  it('shows the writes still queued after a reload', async () => {
    const { page, problems, online, reload } = await openPage();
    await online(false);
    await createPost(page, 'kept');
    await renamePost(page, 'seeded', 'renamed');
    await eventually(async () => expect(await pending(page)).toBe('2'));
    await stored(page, 'queries', 'renamed');

    await reload();
    expect(await titles(page)).toEqual(['renamed', 'kept']);
    expect(await queueOf(page)).toEqual({ pending: 2, conflict: undefined });
    await eventually(async () => expect(await pending(page)).toBe('2'));

    await online(true);
    await eventually(async () => expect(await dbTitles()).toEqual(['renamed', 'kept']));
    await eventually(async () => expect(await pending(page)).toBe('0'));
    expect(problems).toEqual([]);
  });

  it('shows the conflict holding the queue after a reload, to resolve it', async () => {
    const tab = await openPage();
    const { page, problems, reload } = tab;
    await conflict(tab, { current: 'seeded', mine: 'mine', theirs: 'theirs' });

    await reload();
    const { conflict: key } = await queueOf(page);
    expect(key).toEqual(expect.any(String));
    await page.locator('#conflict').waitFor({ timeout: 3000 });
    expect(await page.locator('#conflict').getAttribute('data-key')).toBe(key);
    expect(await page.locator('#conflict .mine').textContent()).toBe('mine');
    expect(await page.locator('#conflict .theirs').textContent()).toBe('theirs');
    await page.click('#keep-mine');
    await eventually(async () => expect(await dbTitle()).toBe('mine'));
    await showsTheServer(page);
    expect(problems).toEqual([]);
  });

  it('applies nothing twice when the connection drops after the server applied a replayed write', async () => {
    const { page, exchanges, problems, online } = await openPage();
    await online(false);
    await createPost(page, 'dropped A');
    await createPost(page, 'dropped B');
    await eventually(async () => expect(await pending(page)).toBe('2'));

    // Each write's first attempt reaches the server, which applies it; the page gets no answer.
    const dropped = new Set<string>();
    await page.route(`${origin}/api/rpc/post/create`, async (route) => {
      const key = route.request().headers()['idempotency-key']!;
      if (dropped.has(key)) return route.continue();
      dropped.add(key);
      await route.fetch();
      await route.abort('connectionreset');
    });
    await online(true);
    await eventually(async () => expect((await queueOf(page)).pending).toBe(0), 10_000);
    expect(await pending(page)).toBe('0');

    expect(dropped.size).toBe(2);
    const creates = exchanges.filter((exchange) => exchange.path === '/api/rpc/post/create');
    // Two attempts each (the first dropped), with the same key: the server answered the second from the first.
    expect(creates.map((exchange) => exchange.status ?? exchange.failed)).toEqual([
      expect.stringMatching(/ERR_/),
      201,
      expect.stringMatching(/ERR_/),
      201,
    ]);
    expect(creates[0]!.headers['idempotency-key']).toBe(creates[1]!.headers['idempotency-key']);
    expect(creates[2]!.headers['idempotency-key']).toBe(creates[3]!.headers['idempotency-key']);
    expect(await dbTitles()).toEqual(['seeded', 'dropped A', 'dropped B']);
    await showsTheServer(page);
    expect(problems).toEqual([]);
  });

  it('answers reads from the persisted cache offline after a reload, and revalidates them with If-None-Match', async () => {
    await t.db.prisma.post.create({ data: { title: 'second', authorId } });
    const { page, exchanges, problems, online, reload } = await openPage();
    expect(await titles(page)).toEqual(['seeded', 'second']);
    // What a reload needs: the queries (TanStack's persister) and the reads' tags (the client's).
    await stored(page, 'queries', 'second');
    await stored(page, 'reads', '/post/findMany');

    await online(false);
    const before = exchanges.length;
    await reload();
    expect(await titles(page)).toEqual(['seeded', 'second']);
    expect(exchanges.slice(before).filter((exchange) => exchange.status !== undefined)).toEqual([]);

    await online(true);
    const reads = (from: number) =>
      exchanges
        .slice(from)
        .filter((exchange) => exchange.method === 'GET' && exchange.path === '/api/rpc/post/findMany');
    const online1 = exchanges.length;
    await reload();
    await eventually(() => expect(reads(online1).map((exchange) => exchange.status)).toEqual([304]));
    expect(reads(online1)[0]!.headers['if-none-match']).toMatch(/^"/);
    expect(await titles(page)).toEqual(['seeded', 'second']);

    // A changed list: the same tag is sent, and the new answer replaces the cached one.
    await t.db.prisma.post.update({
      where: { id: (await t.db.prisma.post.findFirstOrThrow()).id },
      data: { title: 'changed' },
    });
    const online2 = exchanges.length;
    await reload();
    await eventually(() => expect(reads(online2).map((exchange) => exchange.status)).toEqual([200]));
    expect(reads(online2)[0]!.headers['if-none-match']).toBe(reads(online1)[0]!.headers['if-none-match']);
    await showsTheServer(page);
    expect(await titles(page)).toEqual(['changed', 'second']);
    expect(problems).toEqual([]);
  });

  it('resumes a live query when the connection returns, from its last event, with what changed meanwhile', async () => {
    const { page, exchanges, problems, online } = await openPage('?live');
    const live = page.locator('#live > li');
    await live.first().waitFor();
    await online(false);
    // The stream is cut while the network is down: the page cannot reconnect until it is back.
    (t.app.getHttpServer() as Server).closeAllConnections();
    const [seeded] = await t.db.prisma.post.findMany();
    await t.db.prisma.post.update({ where: { id: seeded!.id }, data: { title: 'changed while offline' } });
    await quiet();
    expect(await live.allTextContents()).toEqual(['seeded']);

    await online(true);
    await page.locator('#live > li', { hasText: 'changed while offline' }).waitFor({ timeout: 10_000 });
    const streams = exchanges.filter((exchange) => exchange.headers['accept'] === 'text/event-stream');
    expect(streams.length).toBeGreaterThan(1);
    // The stream opened again after the last one it heard from sends that event's id.
    expect(streams.at(-1)!.headers['last-event-id']).toEqual(expect.any(String));
    expect(problems).toEqual([]);
  });

  it('loses no write of two tabs made offline over one IndexedDB, and applies each once', async () => {
    const context = await browser!.newContext();
    const first = await openPage('', context);
    const second = await openPage('', context);
    await Promise.all([first.online(false), second.online(false)]);
    await createPost(first.page, 'from tab 1');
    await createPost(second.page, 'from tab 2');
    await createPost(first.page, 'from tab 1 again');
    // Each tab's queue holds every write: they share the store.
    await eventually(async () => expect((await queueOf(first.page)).pending).toBe(3), 5000);
    await eventually(async () => expect((await queueOf(second.page)).pending).toBe(3), 5000);

    // The first tab is closed before the connection returns: the other sends its writes too.
    await first.page.close();
    await second.online(true);
    const all = ['seeded', 'from tab 1', 'from tab 2', 'from tab 1 again'];
    await eventually(async () => expect(await dbTitles()).toEqual(all), 10_000);
    await quiet();
    expect(await dbTitles()).toEqual(all);
    await showsTheServer(second.page);
    expect([...first.problems, ...second.problems]).toEqual([]);
    await context.close();
  });

  it('rolls a refused write back in the cache and reports it, after showing it while offline', async () => {
    const other = await t.db.prisma.user.create({ data: { email: 'other@x.test', name: 'Other' } });
    await t.db.prisma.post.create({ data: { title: 'someone else’s', authorId: other.id } });
    const { page, problems, online } = await openPage();
    await postItem(page, 'someone else’s').waitFor();
    await online(false);
    await renamePost(page, 'someone else’s', 'taken over');
    // Shown at once, as the write waits.
    await postItem(page, 'taken over').waitFor();
    expect(await pending(page)).toBe('1');

    await online(true);
    // The server refuses it (the policy): the cache goes back to the server's, and the page is told.
    await postItem(page, 'someone else’s').waitFor({ timeout: 10_000 });
    await page.locator('#posts output.refused', { hasText: '403 rejected-by-policy' }).waitFor();
    await showsTheServer(page);
    expect(await pending(page)).toBe('0');
    expect(await dbTitles()).toEqual(['seeded', 'someone else’s']);
    expect(problems).toEqual([]);
    await t.db.prisma.post.deleteMany({ where: { authorId: other.id } });
    await t.db.prisma.user.delete({ where: { id: other.id } });
  });
});
