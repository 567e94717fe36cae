import type { CrudApiRules } from '../../lib/rules/rules.types.js';
import { callRpc } from '../support/rpc-client.js';
import { type TestAppHandle, useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';

/** Every field mode on the sample schema; writes carrying virtual fields need the rules' engine. */
const rules: CrudApiRules = {
  User: {
    fields: { passwordHash: 'writeOnly', role: 'serverSet', createdAt: 'internal' },
    virtual: { password: { type: 'String', required: true } },
  },
  Post: { fields: { authorId: 'serverSet', views: 'internal' } },
  Comment: { fields: { authorId: 'serverSet' } },
};

interface Seeded {
  user: number;
  post: number;
}

async function seed(t: TestAppHandle): Promise<Seeded> {
  const user = await t.db.prisma.user.create({ data: { email: 'modes@x.test', name: 'Modes', passwordHash: 'old' } });
  const post = await t.db.prisma.post.create({ data: { title: 'First', authorId: user.id } });
  return { user: user.id, post: post.id };
}

const send = (t: TestAppHandle, method: 'post' | 'patch', url: string, body: unknown) =>
  t.http()[method](url).set('Content-Type', JSON_API).send(JSON.stringify(body));

const atomic = (t: TestAppHandle, ...operations: unknown[]) =>
  t
    .http()
    .post('/api/rest/operations')
    .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
    .send(JSON.stringify({ 'atomic:operations': operations }));

/** A 400 JSON:API answer with one error at `pointer` whose detail says the server sets the member. */
const serverSetAnswer = (pointer: string) => ({
  links: { self: expect.any(String) },
  errors: [
    {
      status: '400',
      code: 'invalid-payload',
      title: expect.any(String),
      detail: expect.stringMatching(/^(Attribute|Relationship) "\w+" is set by the server/),
      source: { pointer },
    },
  ],
});

describe.each(testProviders())('field modes over REST (%s)', (provider) => {
  const ids = {} as Seeded;
  const t = useTestApp(provider, { options: { rules }, seed: async (app) => Object.assign(ids, await seed(app)) });

  it('never answers write-only or internal columns, and refuses them in fields, filter and sort', async () => {
    const user = (await t.http().get(`/api/rest/user/${ids.user}`).expect(200)).body.data;
    expect(Object.keys(user.attributes).sort()).toEqual(['email', 'name', 'role']);
    const post = await t.http().get(`/api/rest/post/${ids.post}?include=author`).expect(200);
    expect(post.body.data.attributes).not.toHaveProperty('views');
    expect(Object.keys(post.body.included[0].attributes).sort()).toEqual(['email', 'name', 'role']);
    for (const name of ['passwordHash', 'createdAt']) {
      await t.http().get(`/api/rest/user?fields[user]=${name}`).expect(400);
      await t.http().get(`/api/rest/user?filter[${name}]=x`).expect(400);
      await t.http().get(`/api/rest/user?sort=${name}`).expect(400);
      await t.http().get(`/api/rest/post?filter[author][${name}]=x`).expect(400);
    }
  });

  it('takes a write-only column on update and never answers it', async () => {
    const res = await send(t, 'patch', `/api/rest/user/${ids.user}`, {
      data: { type: 'user', id: String(ids.user), attributes: { passwordHash: 'new' } },
    }).expect(200);
    expect(res.body.data.attributes).not.toHaveProperty('passwordHash');
    expect(await t.db.prisma.user.findUnique({ where: { id: ids.user } })).toMatchObject({ passwordHash: 'new' });
  });

  it('refuses server-set attributes and relationships on create and update, at their pointer', async () => {
    const author = { author: { data: { type: 'user', id: String(ids.user) } } };
    const refused = [
      [
        send(t, 'post', '/api/rest/user', {
          data: { type: 'user', attributes: { email: 'a@x.test', name: 'A', role: 'ADMIN' } },
        }),
        '/data/attributes/role',
      ],
      [
        send(t, 'patch', `/api/rest/user/${ids.user}`, { data: { type: 'user', attributes: { role: 'ADMIN' } } }),
        '/data/attributes/role',
      ],
      [
        send(t, 'post', '/api/rest/post', {
          data: { type: 'post', attributes: { title: 't' }, relationships: author },
        }),
        '/data/relationships/author',
      ],
      [
        send(t, 'patch', `/api/rest/post/${ids.post}`, { data: { type: 'post', attributes: { authorId: ids.user } } }),
        '/data/attributes/authorId',
      ],
      [
        send(t, 'patch', `/api/rest/post/${ids.post}`, { data: { type: 'post', relationships: author } }),
        '/data/relationships/author',
      ],
    ] as const;
    for (const [request, pointer] of refused)
      expect((await request.expect(400)).body).toEqual(serverSetAnswer(pointer));
    const route = await send(t, 'patch', `/api/rest/post/${ids.post}/relationships/author`, author.author).expect(400);
    expect(route.body.errors[0]).toMatchObject({ code: 'invalid-payload', detail: expect.stringContaining('server') });
    expect(route.body.errors[0]).not.toHaveProperty('source');
    expect(await t.db.prisma.user.findUnique({ where: { id: ids.user } })).toMatchObject({ role: 'USER' });
  });

  it('refuses server-set members in atomic operations, pointing into the operation', async () => {
    const before = await t.db.prisma.post.count();
    const linkage = { type: 'user', id: String(ids.user) };
    const add = await atomic(
      t,
      { op: 'update', data: { type: 'user', id: String(ids.user), attributes: { name: 'Renamed' } } },
      { op: 'add', data: { type: 'post', attributes: { title: 't' }, relationships: { author: { data: linkage } } } },
    ).expect(400);
    expect(add.body.errors).toEqual([
      expect.objectContaining({ source: { pointer: '/atomic:operations/1/data/relationships/author' } }),
    ]);
    const ref = await atomic(t, {
      op: 'update',
      ref: { type: 'post', id: String(ids.post), relationship: 'author' },
      data: linkage,
    }).expect(400);
    expect(ref.body.errors).toEqual([
      expect.objectContaining({ source: { pointer: '/atomic:operations/0/ref/relationship' } }),
    ]);
    expect(await t.db.prisma.post.count()).toBe(before);
    expect(await t.db.prisma.user.findUnique({ where: { id: ids.user } })).toMatchObject({ name: 'Modes' });
  });

  it('answers an internal column exactly like an attribute that does not exist', async () => {
    const attempt = async (name: string) => {
      const res = await send(t, 'post', '/api/rest/user', {
        data: { type: 'user', attributes: { email: 'b@x.test', name: 'B', password: 'p', [name]: 'x' } },
      }).expect(400);
      return JSON.stringify(res.body).replaceAll(name, 'NAME');
    };
    expect(await attempt('createdAt')).toBe(await attempt('createdXt'));
  });

  it('requires required virtual fields and never what the server sets', async () => {
    const user = await send(t, 'post', '/api/rest/user', {
      data: { type: 'user', attributes: { email: 'c@x.test', name: 'C' } },
    }).expect(400);
    expect(user.body.errors).toEqual([
      expect.objectContaining({
        detail: 'Attribute "password" is required.',
        source: { pointer: '/data/attributes/password' },
      }),
    ]);
    // The server sets the author (a hook, in the application): the check does not ask for it.
    const post = await send(t, 'post', '/api/rest/post', { data: { type: 'post', attributes: { title: 't' } } });
    expect(post.body.errors?.[0]?.detail).not.toBe('Relationship "author" is required.');
  });
});

describe.each(testProviders())('field modes with policies hiding fields, over REST (%s)', (provider) => {
  const ids = {} as Seeded;
  const t = useTestApp(provider, {
    options: {
      rules: { User: { fields: { passwordHash: 'internal' } }, Post: { fields: { published: 'serverSet' } } },
      policies: { Post: { fields: { read: { title: false, published: false } } } },
      defaultPolicy: 'allow',
    },
    seed: async (app) => Object.assign(ids, await seed(app)),
  });

  it('never names a hidden field as required or set by the server', async () => {
    const post = await send(t, 'post', '/api/rest/post', {
      data: { type: 'post', relationships: { author: { data: { type: 'user', id: String(ids.user) } } } },
    }).expect(400);
    expect(JSON.stringify(post.body)).not.toMatch(/Attribute "title" is required|\/data\/attributes\/title/);
    const published = await send(t, 'post', '/api/rest/post', {
      data: { type: 'post', attributes: { published: true } },
    }).expect(400);
    expect(published.body.errors[0].detail).toBe('Unknown attribute "published".');
    const user = await send(t, 'post', '/api/rest/user', {
      data: { type: 'user', attributes: { email: 'd@x.test', name: 'D', passwordHash: 'x' } },
    }).expect(400);
    expect(user.body.errors).toEqual([expect.objectContaining({ detail: 'Unknown attribute "passwordHash".' })]);
    await send(t, 'post', '/api/rest/user', {
      data: { type: 'user', attributes: { email: 'd@x.test', name: 'D' } },
    }).expect(201);
  });
});

describe.each(testProviders())('field modes over RPC (%s)', (provider) => {
  const ids = {} as Seeded;
  const t = useTestApp(provider, { options: { rules }, seed: async (app) => Object.assign(ids, await seed(app)) });
  const rpc = (method: Parameters<typeof callRpc>[1], path: string, args?: unknown) => callRpc(t, method, path, args);
  /** A write with the method its operation takes. */
  const write = (path: string, args: unknown) => rpc(/\/update/.test(path) ? 'patch' : 'post', path, args);
  const unknownKey = (pointer: string, key: string) => ({
    error: { message: `Invalid argument at "${pointer}": unknown key "${key}".`, errorCode: 'invalid-argument' },
  });
  const serverSet = (pointer: string) => ({
    error: {
      errorCode: 'invalid-argument',
      message: `Invalid argument at "${pointer}": "${pointer.split('/').at(-1)}" is set by the server and cannot be given.`,
    },
  });

  it('never answers write-only or internal columns, and refuses them in every read shape', async () => {
    const users = await rpc('get', 'user/findMany', { include: { posts: true } });
    expect(Object.keys(users.data[0]).sort()).toEqual(['email', 'id', 'name', 'posts', 'role']);
    expect(users.data[0].posts[0]).not.toHaveProperty('views');
    for (const name of ['passwordHash', 'createdAt']) {
      for (const [path, args, pointer] of [
        ['user/findMany', { select: { [name]: true } }, `/select/${name}`],
        ['user/findMany', { where: { [name]: { not: null } } }, `/where/${name}`],
        ['user/findMany', { orderBy: { [name]: 'asc' } }, `/orderBy/${name}`],
        ['user/aggregate', { _max: { [name]: true } }, `/_max/${name}`],
        ['user/groupBy', { by: [name] }, '/by/0'],
        ['post/findMany', { include: { author: { select: { [name]: true } } } }, `/include/author/select/${name}`],
      ] as const) {
        const reply = await rpc('get', path, args);
        expect([reply.status, reply.body.error.message]).toEqual([400, expect.stringContaining(`"${pointer}"`)]);
      }
    }
  });

  it('takes a write-only column in data and never answers it', async () => {
    const updated = await write('user/update', { where: { id: ids.user }, data: { passwordHash: 'rpc' } });
    expect(updated.status).toBe(200);
    expect(updated.data).not.toHaveProperty('passwordHash');
    expect(await t.db.prisma.user.findUnique({ where: { id: ids.user } })).toMatchObject({ passwordHash: 'rpc' });
  });

  it('refuses server-set columns and relations at their path, top-level, nested and in batches', async () => {
    const author = { connect: { id: ids.user } };
    for (const [path, args, pointer] of [
      ['user/create', { data: { email: 'e@x.test', name: 'E', role: 'ADMIN' } }, '/data/role'],
      ['user/updateMany', { data: { role: 'ADMIN' } }, '/data/role'],
      ['post/create', { data: { title: 't', authorId: ids.user } }, '/data/authorId'],
      ['post/update', { where: { id: ids.post }, data: { author } }, '/data/author'],
      [
        'post/update',
        { where: { id: ids.post }, data: { comments: { create: [{ body: 'b', author }] } } },
        '/data/comments/create/0/author',
      ],
      ['comment/createMany', { data: [{ body: 'b', postId: ids.post, authorId: ids.user }] }, '/data/0/authorId'],
    ] as const) {
      const reply = await write(path, args);
      expect([reply.status, reply.body]).toEqual([400, serverSet(pointer)]);
    }
    expect(await t.db.prisma.user.findUnique({ where: { id: ids.user } })).toMatchObject({ role: 'USER' });
    expect(await t.db.prisma.comment.count()).toBe(0);
  });

  it('answers internal columns like unknown keys, nested too', async () => {
    const create = await write('user/create', { data: { email: 'f@x.test', name: 'F', createdAt: new Date(0) } });
    expect([create.status, create.body]).toEqual([400, unknownKey('/data/createdAt', 'createdAt')]);
    const nested = await write('user/update', {
      where: { id: ids.user },
      data: { posts: { create: [{ title: 't', views: 1 }] } },
    });
    expect([nested.status, nested.body]).toEqual([400, unknownKey('/data/posts/create/0/views', 'views')]);
  });
});

describe.each(testProviders())('field modes in the OpenAPI documents (%s)', (provider) => {
  const t = useTestApp(provider, { options: { rules } });

  it('leave write-only and internal fields out of answers and server-set ones out of requests', async () => {
    const rest = (await t.http().get('/api/docs/rest.json').expect(200)).body.components.schemas;
    const rpc = (await t.http().get('/api/docs/rpc.json').expect(200)).body.components.schemas;
    expect(Object.keys(rest.UserAttributes.properties).sort()).toEqual(['email', 'name', 'role']);
    const input = rest.UserCreateDocument.properties.data.properties.attributes;
    expect(Object.keys(input.properties).sort()).toEqual(['email', 'name', 'password', 'passwordHash']);
    expect(input.properties.passwordHash.writeOnly).toBe(true);
    expect(input.required).toEqual(['email', 'name', 'password']);
    expect(rest.PostCreateDocument.properties.data.properties.relationships.properties).not.toHaveProperty('author');
    expect(Object.keys(rpc.UserRow.properties).sort()).not.toContain('passwordHash');
    expect(rpc.UserCreateInput.properties).not.toHaveProperty('role');
    expect(rpc.PostUpdateInput.properties).not.toHaveProperty('authorId');
  });
});
