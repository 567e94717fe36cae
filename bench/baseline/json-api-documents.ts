import { type BaselineResponse, sendBytes } from './baseline-response.js';

// Hand-written JSON:API rendering of the three models the REST scenarios return: every field is
// spelled out, nothing is looked up in metadata. It mirrors our module's document byte for byte
// (the runner checks it before measuring), so the comparison prices only the generic layer.

type Row = Record<string, any>;
type Identifier = { type: string; id: number | string };

export const JSON_API_TYPE = 'application/vnd.api+json';

export function sendDocument(
  res: BaselineResponse,
  status: number,
  document: unknown,
  headers?: Record<string, string>,
): void {
  sendBytes(res, status, JSON_API_TYPE, Buffer.from(JSON.stringify(document)), headers);
}

export function notFound(res: BaselineResponse): void {
  sendDocument(res, 404, { errors: [{ status: '404', code: 'not-found', title: 'Not found' }] });
}

function toOne(self: string, name: string, related: Identifier | null) {
  if (!related) return { data: null, links: { self: `${self}/relationships/${name}`, related: `${self}/${name}` } };
  return {
    data: related,
    links: { self: `${self}/relationships/${name}/${related.id}`, related: `${self}/${name}/${related.id}` },
  };
}

function toMany(self: string, name: string, data?: Identifier[]) {
  const links = { self: `${self}/relationships/${name}`, related: `${self}/${name}` };
  return data ? { data, links } : { links };
}

export interface PostLinkage {
  comments?: Identifier[];
}

export function postResource(endpoint: string, post: Row, linkage: PostLinkage = {}) {
  const self = `${endpoint}/post/${post.id}`;
  return {
    type: 'post',
    id: post.id,
    attributes: {
      title: post.title,
      content: post.content,
      status: post.status,
      published: post.published,
      rating: post.rating,
      price: post.price.toString(),
      views: post.views.toString(),
      metadata: post.metadata,
      publishedAt: post.publishedAt ? post.publishedAt.toISOString() : null,
      createdAt: post.createdAt.toISOString(),
      updatedAt: post.updatedAt.toISOString(),
      deletedAt: post.deletedAt ? post.deletedAt.toISOString() : null,
      authorId: post.authorId,
      // PostgreSQL's schema adds a scalar list.
      ...('keywords' in post ? { keywords: post.keywords } : {}),
    },
    relationships: {
      author: toOne(self, 'author', { type: 'user', id: post.authorId }),
      comments: toMany(self, 'comments', linkage.comments),
      tags: toMany(self, 'tags'),
      likes: toMany(self, 'likes'),
    },
    links: { self },
  };
}

export function userResource(endpoint: string, user: Row) {
  const self = `${endpoint}/user/${user.id}`;
  return {
    type: 'user',
    id: user.id,
    attributes: {
      email: user.email,
      name: user.name,
      role: user.role,
      passwordHash: user.passwordHash,
      createdAt: user.createdAt.toISOString(),
    },
    relationships: {
      profile: toOne(self, 'profile', user.profile ? { type: 'profile', id: user.profile.id } : null),
      posts: toMany(self, 'posts'),
      comments: toMany(self, 'comments'),
      likes: toMany(self, 'likes'),
      followers: toMany(self, 'followers'),
      following: toMany(self, 'following'),
    },
    links: { self },
  };
}

export function commentResource(endpoint: string, comment: Row) {
  const self = `${endpoint}/comment/${comment.id}`;
  return {
    type: 'comment',
    id: comment.id,
    attributes: {
      body: comment.body,
      createdAt: comment.createdAt.toISOString(),
      deletedAt: comment.deletedAt ? comment.deletedAt.toISOString() : null,
      postId: comment.postId,
      authorId: comment.authorId,
      parentId: comment.parentId,
    },
    relationships: {
      post: toOne(self, 'post', { type: 'post', id: comment.postId }),
      author: toOne(self, 'author', comment.authorId === null ? null : { type: 'user', id: comment.authorId }),
      parent: toOne(self, 'parent', comment.parentId === null ? null : { type: 'comment', id: comment.parentId }),
      replies: toMany(self, 'replies'),
    },
    links: { self },
  };
}

/** `{endpoint}/…` for the request URL below the REST mount path. */
export function requestLink(endpoint: string, originalUrl: string): string {
  return endpoint + originalUrl.slice(originalUrl.indexOf('/', '/api/rest'.length));
}

export function resourceDocument(self: string, data: unknown) {
  return { jsonapi: { version: '1.1' }, links: { self }, data };
}

/**
 * A page of a collection: `first`/`last`/`prev`/`next` keep the other query parameters; brackets
 * are percent-encoded.
 */
export function collectionDocument(
  self: string,
  base: string,
  query: URLSearchParams,
  page: { offset: number; limit: number; total: number },
  data: unknown[],
  included?: unknown[],
) {
  const link = (offset: number) => {
    const params = new URLSearchParams(query);
    params.delete('page[offset]');
    params.delete('page[limit]');
    params.set('page[offset]', String(offset));
    params.set('page[limit]', String(page.limit));
    return `${base}?${params.toString()}`;
  };
  const lastOffset = Math.max(0, Math.floor((page.total - 1) / page.limit) * page.limit);
  const document: Record<string, unknown> = {
    jsonapi: { version: '1.1' },
    links: {
      self,
      first: link(0),
      last: link(lastOffset),
      prev: page.offset > 0 ? link(Math.max(0, page.offset - page.limit)) : null,
      next: page.offset + page.limit < page.total ? link(page.offset + page.limit) : null,
    },
    meta: { total: page.total },
    data,
  };
  if (included) document.included = included;
  return document;
}

/**
 * `total` without a `COUNT` when the page itself proves it: a short page that is not past the end.
 * This is what a careful hand-written endpoint does, so our module is measured against it.
 */
export function knownTotal(offset: number, limit: number, rows: number): number | undefined {
  return rows < limit && (rows > 0 || offset === 0) ? offset + rows : undefined;
}
