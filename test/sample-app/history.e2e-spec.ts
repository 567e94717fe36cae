import request from 'supertest';

import { testProviders } from '../support/test-database.js';
import { useSampleApp } from './sample-app-harness.js';

const JSON_API = 'application/vnd.api+json';
const q = (args: object) => encodeURIComponent(JSON.stringify(args));

interface Version {
  version: number;
  operation: string;
  at: string;
  actor: string | null;
  changed: string[];
}

describe.each(testProviders())('sample app: post history (%s)', (provider) => {
  const sample = useSampleApp(provider);
  let alice: number;

  beforeAll(async () => {
    alice = (await sample.db.prisma.user.findFirstOrThrow({ orderBy: { id: 'asc' } })).id;
  });

  const as = () => {
    const agent = request(sample.app.getHttpServer());
    const set = <T extends { set(name: string, value: string): T }>(req: T) => req.set('x-user-id', String(alice));
    return {
      get: (url: string) => set(agent.get(url)),
      post: (url: string, body: object) => set(agent.post(url)).send(body),
      patch: (url: string, body: object, type = 'application/json') =>
        set(agent.patch(url)).set('Content-Type', type).set('Accept', type).send(body),
    };
  };
  const history = async (id: number): Promise<Version[]> =>
    (
      await as()
        .get(`/api/rpc/post/history?q=${q({ where: { id } })}`)
        .expect(200)
    ).body.data;
  const titleAsOf = async (id: number, asOf: string): Promise<string[]> =>
    (
      await as()
        .get(`/api/rpc/post/findMany?q=${q({ where: { id }, asOf })}`)
        .expect(200)
    ).body.data.map((post: { title: string }) => post.title);

  it('records a REST PATCH and an RPC update, answers the older titles asOf, and restores a version', async () => {
    const created = await as()
      .post('/api/rpc/post/create', { data: { title: 'First draft' } })
      .expect(201);
    const id: number = created.body.data.id;
    const document = { data: { type: 'post', id: String(id), attributes: { title: 'Edited over REST' } } };
    await as().patch(`/api/rest/post/${id}`, document, JSON_API).expect(200);
    await as()
      .patch('/api/rpc/post/update', { where: { id }, data: { title: 'Edited over RPC' } })
      .expect(200);

    const versions = await history(id);
    expect(versions.map(({ operation }) => operation)).toEqual(['update', 'update', 'create']);
    expect(versions.every(({ actor }) => actor === String(alice))).toBe(true);
    expect(versions[0]!.changed).toContain('title');
    const [, rest, create] = versions;
    // As of each change's time, the post as that change left it.
    expect(await titleAsOf(id, create!.at)).toEqual(['First draft']);
    expect(await titleAsOf(id, rest!.at)).toEqual(['Edited over REST']);

    const restored = await as()
      .post('/api/rpc/post/restoreVersion', { where: { id }, version: create!.version })
      .expect(200);
    expect(restored.body.data.title).toBe('First draft');
    expect((await history(id)).length).toBe(4);
  });
});
