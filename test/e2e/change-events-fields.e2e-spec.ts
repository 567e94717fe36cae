import { Injectable } from '@nestjs/common';
import { EventEmitterModule, OnEvent } from '@nestjs/event-emitter';

import { type ChangeEvent, type CrudApiRules, type DataModelMeta, withPolicies } from '../../lib/index.js';
import { eventually } from '../support/eventually.js';
import { callRpc } from '../support/rpc-client.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';

/** An internal and a write-only column: no change event carries either, to any listener. */
const rules: CrudApiRules = {
  User: {
    fields: { passwordHash: 'internal', role: 'writeOnly' },
    beforeCreate: ({ data }) => void (data.passwordHash = 'server-made hash'),
  },
  Post: { fields: { views: 'internal' } },
};
const UNREADABLE: Record<string, string[]> = { User: ['passwordHash', 'role'], Post: ['views'] };

const heard: { option: ChangeEvent[]; emitter: ChangeEvent[] } = { option: [], emitter: [] };

@Injectable()
class ChangeListener {
  @OnEvent('crud-api.**')
  on(event: ChangeEvent) {
    heard.emitter.push(event);
  }
}

/** The columns of each row image of the events, by `operation Model before|after`. */
const columns = (events: ChangeEvent[]) =>
  events.flatMap((event) =>
    (['before', 'after'] as const)
      .filter((image) => event[image])
      .map((image) => [`${event.operation} ${event.model} ${image}`, Object.keys(event[image]!).sort()]),
  );

describe.each(testProviders())('change events without unreadable columns (%s)', (provider) => {
  const t = useTestApp(provider, {
    options: {
      rules,
      onChange: (event) => void heard.option.push(event),
      outbox: { model: 'OutboxEntry', worker: false },
    },
    metadata: { imports: [EventEmitterModule.forRoot({ wildcard: true })], providers: [ChangeListener] },
  });
  const outbox = () => (t.db.prisma as any).outboxEntry;
  beforeEach(async () => {
    heard.option = [];
    heard.emitter = [];
    await outbox().deleteMany();
  });

  /** Every event's rows hold the readable columns of its model and none of the unreadable ones. */
  const expectReadableOnly = (events: ChangeEvent[]) => {
    const models: DataModelMeta['models'] = t.db.modelMeta.models;
    for (const event of events) {
      const readable = Object.values(models[event.model]!.fields)
        .filter((field) => !field.relation && !UNREADABLE[event.model]!.includes(field.name))
        .map((field) => field.name);
      for (const row of [event.before, event.after].filter(Boolean))
        expect(Object.keys(row!).sort()).toEqual(readable.sort());
    }
  };

  it('REST, RPC (nested writes, sequential transactions) and the outbox: the same readable columns', async () => {
    const created = await t
      .http()
      .post('/api/rest/user')
      .set('Content-Type', JSON_API)
      .send({ data: { type: 'user', attributes: { email: 'rest@x.test', name: 'R', role: 'ADMIN' } } })
      .expect(201);
    const userId = Number(created.body.data.id);
    const nested = await callRpc(t, 'post', 'user/create', {
      data: { email: 'rpc@x.test', name: 'N', posts: { create: [{ title: 'n1' }] } },
      include: { posts: true },
    });
    expect(nested.status).toBe(201);
    const sequential = await callRpc(t, 'post', '$transaction/sequential', [
      { model: 'user', op: 'update', args: { where: { id: userId }, data: { name: 'R2' } } },
      { model: 'post', op: 'update', args: { where: { id: nested.data.posts[0].id }, data: { title: 'n2' } } },
    ]);
    expect(sequential.status).toBe(200);
    await t.http().delete(`/api/rest/user/${userId}`).expect(204);

    await eventually(() => expect(heard.option).toHaveLength(6));
    expectReadableOnly(heard.option);
    await eventually(() => expect(heard.emitter).toHaveLength(6));
    expect(columns(heard.emitter)).toEqual(columns(heard.option));
    // The outbox keeps the same rows as the listeners hear.
    const entries: { payload: ChangeEvent }[] = await outbox().findMany({ orderBy: { id: 'asc' } });
    expect(columns(entries.map((entry) => entry.payload))).toEqual(columns(heard.option));
  });

  it('hand-written code through withPolicies: its listeners hear the same rows', async () => {
    const events: ChangeEvent[] = [];
    const client = withPolicies(t.db.prisma, {
      modelMeta: t.db.modelMeta,
      context: {},
      rules,
      onChange: (event) => void events.push(event),
    }) as any;
    const user = await client.user.create({
      data: { email: 'own@x.test', name: 'O', posts: { create: { title: 'p' } } },
    });
    await client.user.update({ where: { id: user.id }, data: { name: 'O2' } });
    await client.post.deleteMany({ where: { authorId: user.id } });
    await eventually(() => expect(events).toHaveLength(4));
    expectReadableOnly(events);
    // Stored all the same: the events leave the column out, the write does not.
    expect(await t.db.prisma.user.findUnique({ where: { id: user.id } })).toMatchObject({
      passwordHash: 'server-made hash',
    });
  });
});
