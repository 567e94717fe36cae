import { openLiveQuery } from '../support/event-stream-client.js';
import { testProviders } from '../support/test-database.js';
import { useSampleApp } from './sample-app-harness.js';

const JSON_API = 'application/vnd.api+json';

describe.each(testProviders())('sample app: live queries (%s)', (provider) => {
  const sample = useSampleApp(provider);
  let base: string;
  let alice: number, bob: number;

  beforeAll(async () => {
    await sample.app.listen(0, '127.0.0.1');
    base = (await sample.app.getUrl()).replace('[::1]', '127.0.0.1');
    const users = await sample.db.prisma.user.findMany({ orderBy: { id: 'asc' } });
    [alice, bob] = [users[0]!.id, users[1]!.id];
  });

  const write = async (user: number, path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': JSON_API, Accept: JSON_API, 'x-user-id': String(user) },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(201);
    return (await response.json()).data.id as string;
  };
  const titles = (document: unknown) =>
    (document as { data: { attributes: { title: string } }[] }).data.map((post) => post.attributes.title);

  it("streams each caller's own posts: a draft reaches its author only, its publication everyone", async () => {
    const path = `/api/rest/post?filter[title]=live-sample&fields[post]=title`;
    const author = await openLiveQuery(`${base}${path}`, { 'x-user-id': String(bob) });
    const other = await openLiveQuery(`${base}${path}`, { 'x-user-id': String(alice) });
    const anonymous = await openLiveQuery(`${base}${path}`);
    for (const stream of [author, other, anonymous]) expect(titles(await stream.nth(1))).toEqual([]);

    const id = await write(bob, '/api/rest/post', { data: { type: 'post', attributes: { title: 'live-sample' } } });
    expect(titles(await author.nth(2))).toEqual(['live-sample']);

    const published = await fetch(`${base}/api/rest/post/${id}`, {
      method: 'PATCH',
      headers: { 'Content-Type': JSON_API, Accept: JSON_API, 'x-user-id': String(bob) },
      body: JSON.stringify({ data: { type: 'post', id, attributes: { published: true } } }),
    });
    expect(published.status).toBe(200);
    expect(titles(await other.nth(2))).toEqual(['live-sample']);
    expect(titles(await anonymous.nth(2))).toEqual(['live-sample']);
    // The draft never reached the others: their second answer is the published post.
    expect(other.results()).toHaveLength(2);
    expect(anonymous.results()).toHaveLength(2);
    for (const stream of [author, other, anonymous]) stream.close();
  });
});
