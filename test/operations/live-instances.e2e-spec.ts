import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';

import { type ChildApp, startChildApp } from '../support/child-app.js';
import { openLiveQuery } from '../support/event-stream-client.js';
import { eventually } from '../support/eventually.js';
import { testPlatform } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testProviders } from '../support/test-database.js';

const MAIN = fileURLToPath(new URL('../live-app/main.ts', import.meta.url));
const onPostgres = testProviders().includes('postgresql') ? describe : describe.skip;
const TRANSPORTS: Array<[string, 'postgres' | 'redis']> = [
  ['PostgreSQL LISTEN/NOTIFY', 'postgres'],
  ...(process.env.TEST_REDIS_URL ? [['Redis pub/sub', 'redis'] as [string, 'redis']] : []),
];

/** Two application processes over one PostgreSQL database: a commit on one reaches the other's subscribers. */
onPostgres.each(TRANSPORTS)('live queries across instances (%s)', (_name, transport) => {
  let db: TestDatabase;
  let apps: ChildApp[] = [];
  let authorId: number;
  beforeAll(async () => {
    db = await createTestDatabase('postgresql');
    authorId = (await db.prisma.user.create({ data: { email: 'a@x.test', name: 'A' } })).id;
    const env = {
      DATABASE_URL: db.url,
      PLATFORM: testPlatform(),
      TRANSPORT: transport,
      TRANSPORT_URL: transport === 'redis' ? process.env.TEST_REDIS_URL! : db.url,
      // Its own channel: other suites' instances on the same server hear nothing of it.
      TRANSPORT_CHANNEL: `live_${randomUUID().replaceAll('-', '')}`,
    };
    apps = await Promise.all([startChildApp(MAIN, env), startChildApp(MAIN, env)]);
  }, 60_000);
  afterAll(async () => {
    for (const app of apps) app.signal('SIGTERM');
    await Promise.all(apps.map((app) => app.exited));
    await db.drop();
  });

  const create = async (url: string, title: string) => {
    const response = await fetch(`${url}/api/rpc/post/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { title, authorId } }),
    });
    expect(response.status).toBe(201);
  };

  it("delivers one instance's commits to the other's subscribers, on both interfaces", async () => {
    const [a, b] = apps as [ChildApp, ChildApp];
    const rest = await openLiveQuery(`${b.url}/api/rest/post?filter[title]=across&fields[post]=title`);
    const rpc = await openLiveQuery(
      `${b.url}/api/rpc/post/count?q=${encodeURIComponent('{"where":{"title":"across"}}')}`,
    );
    await Promise.all([rest.nth(1), rpc.nth(1)]);
    const latencies: number[] = [];
    for (let n = 1; n <= 20; n++) {
      const started = performance.now();
      await create(a.url, 'across');
      await rpc.nth(n + 1, 5000);
      latencies.push(performance.now() - started);
    }
    // The REST stream may have coalesced commits made within one debounce: its last answer has them all.
    await eventually(() => expect((rest.results().at(-1) as { data: unknown[] }).data).toHaveLength(20));
    expect(rpc.results().at(-1)).toEqual({ data: 20 });
    latencies.sort((x, y) => x - y);
    // Written to the log for the record; speed is the bench's to measure.
    console.log(
      `${transport}: write on one instance to event on the other, p50 ${latencies[10]!.toFixed(1)} ms, max ${latencies.at(-1)!.toFixed(1)} ms`,
    );
    rest.close();
    rpc.close();
  });

  it('ends its streams when it shuts down, and exits', async () => {
    const b = apps[1]!;
    const stream = await openLiveQuery(`${b.url}/api/rest/post?page[size]=1`);
    await stream.nth(1);
    b.signal('SIGTERM');
    expect((await b.exited).code).toBe(0);
    await eventually(() => expect(stream.ended).toBe(true));
  });
});
