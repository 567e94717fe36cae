import { Injectable } from '@nestjs/common';

import {
  type ModelMeta,
  type RelationshipWrite,
  type ResourceContext,
  type ResourceTarget,
  type ResourceWrite,
  RestService,
  type Selection,
} from '../../lib/index.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const JSON_API = 'application/vnd.api+json';

/** What the extension fills in and marks: the defaults of a created post, the marks of its other writes. */
const DEFAULT_CONTENT = 'Filled in by the extension';
const UPDATED = 'Updated through the extension';
const RELINKED = 'Relinked through the extension';
/** The default author of a created post: a user the suite creates first. */
const defaults = { authorId: 0 };
/** Every resource operation the extension ran, in order. */
const calls: string[] = [];

/**
 * A `restService` extension at the resource level: a created post gets a default author (a required
 * relationship) and content; updates mark the post, deletes archive it instead, and relationship
 * changes mark it with a write of their own in the operation's transaction.
 */
@Injectable()
class ExtendedRestService extends RestService {
  override createResource(context: ResourceContext, model: ModelMeta, write: ResourceWrite, selection: Selection) {
    calls.push(`create ${model.name}`);
    if (model.name === 'Post') {
      write.data.authorId ??= defaults.authorId;
      write.data.content ??= DEFAULT_CONTENT;
    }
    return super.createResource(context, model, write, selection);
  }

  override updateResource(
    context: ResourceContext,
    target: ResourceTarget,
    write: ResourceWrite,
    selection: Selection,
  ) {
    calls.push(`update ${target.type} ${target.rawId}`);
    const data = isPost(target) ? { ...write.data, content: UPDATED } : write.data;
    return super.updateResource(context, target, { ...write, data }, selection);
  }

  override async deleteResource(context: ResourceContext, target: ResourceTarget): Promise<void> {
    calls.push(`delete ${target.type} ${target.rawId}`);
    if (!isPost(target)) return super.deleteResource(context, target);
    await context.client.post.update({ where: target.id, data: { status: 'ARCHIVED' }, select: { id: true } });
  }

  override async updateRelationship(context: ResourceContext, target: ResourceTarget, write: RelationshipWrite) {
    calls.push(`${write.change} ${target.type} ${target.rawId} ${write.field.name}`);
    await super.updateRelationship(context, target, write);
    if (isPost(target)) {
      await context.client.post.update({ where: target.id, data: { content: RELINKED }, select: { id: true } });
    }
  }
}

const isPost = (target: ResourceTarget) => target.model.name === 'Post';

describe.each(testProviders())('RestService extensions on every REST write path (%s)', (provider) => {
  let tag: number;
  const t = useTestApp(provider, {
    options: { restService: ExtendedRestService },
    seed: async ({ db }) => {
      defaults.authorId = (await db.prisma.user.create({ data: { email: 'default@x.test', name: 'Default' } })).id;
      tag = (await db.prisma.tag.create({ data: { name: 'extended' } })).id;
    },
  });
  beforeEach(() => {
    calls.length = 0;
  });

  const send = (method: 'post' | 'patch' | 'delete', url: string, body?: unknown) => {
    const req = t.http()[method](`/api/rest${url}`).set('Content-Type', JSON_API);
    return body === undefined ? req : req.send(JSON.stringify(body));
  };
  const atomic = (...operations: unknown[]) =>
    t
      .http()
      .post('/api/rest/operations')
      .set({ 'Content-Type': ATOMIC, Accept: ATOMIC })
      .send(JSON.stringify({ 'atomic:operations': operations }));
  const posts = async (...titles: string[]) => {
    const ids: string[] = [];
    for (const title of titles) {
      ids.push(String((await t.db.prisma.post.create({ data: { title, authorId: defaults.authorId } })).id));
    }
    return ids;
  };
  /** A post as stored, without what tells two posts apart. */
  const stored = async (id: string) => {
    const row = await t.db.prisma.post.findUnique({
      where: { id: Number(id) },
      select: { authorId: true, content: true, status: true, tags: { select: { id: true } } },
    });
    return row;
  };

  it('fills the create defaults for POST /:type and for an atomic add alike', async () => {
    const single = await send('post', '/post', { data: { type: 'post', attributes: { title: 'single' } } }).expect(201);
    const operations = await atomic({ op: 'add', data: { type: 'post', attributes: { title: 'atomic' } } }).expect(200);
    const atomicId = operations.body['atomic:results'][0].data.id;
    expect(calls).toEqual(['create Post', 'create Post']);
    const created = await stored(String(single.body.data.id));
    expect(created).toEqual({ authorId: defaults.authorId, content: DEFAULT_CONTENT, status: 'DRAFT', tags: [] });
    expect(await stored(String(atomicId))).toEqual(created);
  });

  it('runs the update and delete operations for PATCH, DELETE and atomic update and remove alike', async () => {
    const [patched, deleted, updated, removed] = await posts('patched', 'deleted', 'updated', 'removed');
    await send('patch', `/post/${patched}`, { data: { type: 'post', attributes: { title: 'patched!' } } }).expect(200);
    await send('delete', `/post/${deleted}`).expect(204);
    await atomic(
      { op: 'update', data: { type: 'post', id: updated, attributes: { title: 'updated!' } } },
      { op: 'remove', ref: { type: 'post', id: removed } },
    ).expect(200);
    expect(calls).toEqual([
      `update post ${patched}`,
      `delete post ${deleted}`,
      `update post ${updated}`,
      `delete post ${removed}`,
    ]);
    expect(await stored(patched)).toMatchObject({ content: UPDATED, status: 'DRAFT' });
    expect(await stored(updated)).toEqual(await stored(patched));
    expect(await stored(deleted)).toMatchObject({ content: null, status: 'ARCHIVED' });
    expect(await stored(removed)).toEqual(await stored(deleted));
  });

  it('runs the relationship operation for a relationship route and an atomic relationship operation alike', async () => {
    const [routed, operated] = await posts('routed', 'operated');
    await send('post', `/post/${routed}/relationships/tags`, { data: [{ type: 'tag', id: String(tag) }] }).expect(200);
    await atomic({
      op: 'add',
      ref: { type: 'post', id: operated, relationship: 'tags' },
      data: [{ type: 'tag', id: String(tag) }],
    }).expect(200);
    expect(calls).toEqual([`add post ${routed} tags`, `add post ${operated} tags`]);
    expect(await stored(routed)).toMatchObject({ content: RELINKED, tags: [{ id: tag }] });
    expect(await stored(operated)).toEqual(await stored(routed));
  });

  it("runs an atomic request's extended operations in its transaction: a later failure rolls them back", async () => {
    const [kept] = await posts('kept');
    const before = await stored(kept!);
    await atomic(
      { op: 'add', ref: { type: 'post', id: kept, relationship: 'tags' }, data: [{ type: 'tag', id: String(tag) }] },
      { op: 'add', data: { type: 'post', attributes: { title: 'rolled back' } } },
      { op: 'update', data: { type: 'post', id: '999999', attributes: { title: 'missing' } } },
    ).expect(404);
    expect(calls).toEqual([`add post ${kept} tags`, 'create Post', 'update post 999999']);
    expect(await stored(kept!)).toEqual(before);
    expect(await t.db.prisma.post.count({ where: { title: 'rolled back' } })).toBe(0);
  });
});
