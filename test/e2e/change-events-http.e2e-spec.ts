import { Injectable } from '@nestjs/common';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';

import type { ChangeEvent } from '../../lib/index.js';
import { eventually, settled } from '../support/eventually.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

/** Events heard through the module's `onChange` option and through the application's EventEmitter2. */
const heard: { option: string[]; emitter: string[] } = { option: [], emitter: [] };
const key = (event: ChangeEvent) => `${event.operation} ${event.model} ${Object.values(event.id).join('_')}`;

@Injectable()
class PostListener {
  @OnEvent('crud-api.Post.*')
  onPost(event: ChangeEvent) {
    heard.emitter.push(key(event));
  }
}

describe.each(testProviders())('change events on both interfaces (%s)', (provider) => {
  let authorId: number;
  const t = useTestApp(provider, {
    options: { onChange: (event) => void heard.option.push(key(event)) },
    metadata: { imports: [EventEmitterModule.forRoot({ wildcard: true })], providers: [PostListener] },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'a@x.test', name: 'A' } })).id;
    },
  });
  beforeEach(() => {
    heard.option = [];
    heard.emitter = [];
  });

  it('reports REST writes to the option and to the event emitter after they commit', async () => {
    const created = await t
      .http()
      .post('/api/rest/post')
      .set('Content-Type', JSON_API)
      .send({
        data: {
          type: 'post',
          attributes: { title: 'rest' },
          relationships: { author: { data: { type: 'user', id: String(authorId) } } },
        },
      })
      .expect(201);
    const id = created.body.data.id;
    await t.http().delete(`/api/rest/post/${id}`).expect(204);
    await eventually(() => expect(heard.option).toEqual([`create Post ${id}`, `delete Post ${id}`]));
    await eventually(() => expect(heard.emitter).toEqual(heard.option));
  });

  it('reports the operations of a committed atomic request and nothing of a failed one', async () => {
    const add = (title: string, author: string) => ({
      op: 'add',
      data: { type: 'post', attributes: { title }, relationships: { author: { data: { type: 'user', id: author } } } },
    });
    const ok = await t
      .http()
      .post('/api/rest/operations')
      .set('Content-Type', ATOMIC)
      .set('Accept', ATOMIC)
      .send({ 'atomic:operations': [add('a1', String(authorId)), add('a2', String(authorId))] })
      .expect(200);
    await t
      .http()
      .post('/api/rest/operations')
      .set('Content-Type', ATOMIC)
      .set('Accept', ATOMIC)
      .send({ 'atomic:operations': [add('a3', String(authorId)), add('a4', '999999')] });
    await settled();
    const ids = ok.body['atomic:results'].map((result: { data: { id: string } }) => result.data.id);
    await eventually(() => expect(heard.option).toEqual(ids.map((id: string) => `create Post ${id}`)));
    expect(await t.db.prisma.post.count({ where: { title: 'a3' } })).toBe(0);
  });

  it('reports RPC writes and sequential transactions, and nothing of a rolled-back one', async () => {
    const one = await callRpc(t, 'post', 'post/create', { data: { title: 'rpc', authorId } });
    const failed = await callRpc(t, 'post', '$transaction/sequential', [
      { model: 'post', op: 'update', args: { where: { id: one.data.id }, data: { title: 'rpc 2' } } },
      { model: 'post', op: 'create', args: { data: { title: 'never', authorId: 999_999 } } },
    ]);
    await settled();
    expect(failed.status).toBe(400);
    expect(await t.db.prisma.post.findUnique({ where: { id: one.data.id } })).toMatchObject({ title: 'rpc' });
    await eventually(() => expect(heard.option).toEqual([`create Post ${one.data.id}`]));
    await eventually(() => expect(heard.emitter).toEqual(heard.option));
  });
});
