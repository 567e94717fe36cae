/**
 * Issue #11, REST (JSON:API) side: the sample app's policies tried as an attacker would. Every
 * probe compares two answers, or the database before and after; none relies on a message alone.
 */
import { type DemoUser, samplePolicies } from '../../fixtures/blog/policies.js';
import {
  isClientError,
  normalizeAnswer,
  probeState,
  PROTOTYPE_KEYS,
  seedAdversarialWorld,
  WORLD,
} from '../support/adversarial-fixtures.js';
import { type RawReply, rawRest, restReason } from '../support/adversarial-http.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

type Caller = 'anon' | 'admin' | 'alice' | 'bob';
type Method = 'get' | 'post' | 'patch' | 'delete';

const { alice, bob, admin, posts: P, comments: C, tags: T, missing: M } = WORLD;
const USERS: Record<Caller, DemoUser | undefined> = { anon: undefined, admin, alice, bob };

const doc = (data: unknown) => JSON.stringify({ data });
const ref = (type: string, id: string | number) => ({ type, id: String(id) });

/** Prototype-key probes: `$KEY` marks where the key goes, in the body (JSON text) or the query string. */
const PROTOTYPE_PROBES: [label: string, caller: Caller, method: Method, path: string, json: string | undefined][] = [
  [
    'create attributes',
    'alice',
    'post',
    'post',
    `{"data":{"type":"post","attributes":{"title":"x","$KEY":{"published":true}},"relationships":{"author":{"data":{"type":"user","id":"${alice.id}"}}}}}`,
  ],
  [
    'create relationships',
    'alice',
    'post',
    'post',
    `{"data":{"type":"post","attributes":{"title":"x"},"relationships":{"$KEY":{"author":{"data":{"type":"user","id":"${bob.id}"}}}}}}`,
  ],
  [
    'update attributes (role)',
    'alice',
    'patch',
    `user/${alice.id}`,
    `{"data":{"type":"user","id":"${alice.id}","attributes":{"$KEY":{"role":"ADMIN"}}}}`,
  ],
  [
    'update attributes (protected passwordHash)',
    'alice',
    'patch',
    `user/${alice.id}`,
    `{"data":{"type":"user","id":"${alice.id}","attributes":{"$KEY":{"passwordHash":"pwned"}}}}`,
  ],
  [
    'update relationships',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","relationships":{"$KEY":{"author":{"data":{"type":"user","id":"${bob.id}"}}}}}}`,
  ],
  [
    'a relationship object',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","relationships":{"author":{"$KEY":{"data":{"type":"user","id":"${bob.id}"}}}}}}`,
  ],
  [
    'a resource identifier',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","relationships":{"author":{"data":{"type":"user","id":"${alice.id}","$KEY":{"id":"${bob.id}"}}}}}}`,
  ],
  [
    'the resource object',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","$KEY":{"attributes":{"title":"pwned"}}}}`,
  ],
  [
    'the document',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","attributes":{"title":"changed"}},"$KEY":{"x":1}}`,
  ],
  [
    'meta',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","attributes":{"title":"changed"},"meta":{"$KEY":{"x":1}}}}`,
  ],
  [
    'a Json attribute',
    'alice',
    'patch',
    `post/${P.alicePub}`,
    `{"data":{"type":"post","id":"${P.alicePub}","attributes":{"metadata":{"$KEY":{"polluted":true}}}}}`,
  ],
  [
    'a to-one relationship endpoint',
    'alice',
    'patch',
    `post/${P.alicePub}/relationships/author`,
    `{"data":{"type":"user","id":"${alice.id}","$KEY":{"id":"${bob.id}"}}}`,
  ],
  [
    'a to-many relationship endpoint',
    'alice',
    'post',
    `post/${P.alicePub}/relationships/comments`,
    `{"data":[{"type":"comment","id":"${C.aliceOnAlicePub}","$KEY":{"id":"${C.bobOnBobPub}"}}]}`,
  ],
  ['filter', 'anon', 'get', 'user?filter[$KEY][passwordHash$startsWith]=hash-a', undefined],
  ['a relationship filter', 'anon', 'get', 'post?filter[author][$KEY][passwordHash$startsWith]=hash-a', undefined],
  ['a filter field', 'anon', 'get', 'user?filter[$KEY]=1', undefined],
  ['fields', 'anon', 'get', 'user?fields[$KEY]=name', undefined],
  ['sort', 'anon', 'get', 'user?sort=$KEY', undefined],
  ['include', 'anon', 'get', 'user?include=$KEY', undefined],
  ['page', 'anon', 'get', 'user?page[$KEY]=1', undefined],
];

describe.each(testProviders())('adversarial access policies over REST (%s)', (provider) => {
  let caller: DemoUser | undefined;
  const rest = (who: Caller, method: Method, path: string, json?: string): Promise<RawReply> => {
    caller = USERS[who];
    return rawRest(t, method, path, json);
  };
  // `links` echo the request's own URL: leave them out when comparing two requests.
  const norm = (res: RawReply, replace: readonly (string | number)[] = []) =>
    normalizeAnswer(res.status, withoutLinks(res.body), replace);

  const t = useTestApp(provider, {
    options: { policies: samplePolicies, context: () => ({ user: caller }) },
    seed: ({ db }) => seedAdversarialWorld(db),
  });

  describe('prototype keys in any position are refused (4xx) and change nothing', () => {
    const table = PROTOTYPE_PROBES.flatMap(([label, who, method, path, json]) =>
      PROTOTYPE_KEYS.map(
        (key) => [key, label, who, method, path.replaceAll('$KEY', key), json?.replaceAll('$KEY', key)] as const,
      ),
    );
    it.each(table)('%s in %s (%s %s %s)', async (_key, _label, who, method, path, json) => {
      const { result, before, after } = await probeState(t.db, () => rest(who, method, path, json));
      expect({ status: result.status, clientError: isClientError(result.status) }).toEqual({
        status: result.status,
        clientError: true,
      });
      expect(after).toBe(before);
    });
  });

  describe('updates are checked again on the row after the change (403, row unchanged)', () => {
    const table: [string, Method, string, string][] = [
      [
        'PATCH /post/:id relationships.author',
        'patch',
        `post/${P.alicePub}`,
        doc({ type: 'post', id: String(P.alicePub), relationships: { author: { data: ref('user', bob.id) } } }),
      ],
      [
        'PATCH a draft relationships.author',
        'patch',
        `post/${P.aliceDraft}`,
        doc({ type: 'post', id: String(P.aliceDraft), relationships: { author: { data: ref('user', bob.id) } } }),
      ],
      [
        'PATCH /post/:id/relationships/author',
        'patch',
        `post/${P.alicePub}/relationships/author`,
        doc(ref('user', bob.id)),
      ],
      [
        'PATCH /profile/:id relationships.user',
        'patch',
        `profile/${WORLD.aliceProfile}`,
        doc({ type: 'profile', id: WORLD.aliceProfile, relationships: { user: { data: ref('user', bob.id) } } }),
      ],
      [
        'PATCH /profile/:id/relationships/user',
        'patch',
        `profile/${WORLD.aliceProfile}/relationships/user`,
        doc(ref('user', bob.id)),
      ],
      [
        'PATCH /comment/:id relationships.author',
        'patch',
        `comment/${C.aliceOnAlicePub}`,
        doc({ type: 'comment', id: C.aliceOnAlicePub, relationships: { author: { data: ref('user', bob.id) } } }),
      ],
      [
        'PATCH /comment/:id/relationships/author',
        'patch',
        `comment/${C.aliceOnAlicePub}/relationships/author`,
        doc(ref('user', bob.id)),
      ],
    ];
    it.each(table)('%s', async (_label, method, path, json) => {
      const { result, before, after } = await probeState(t.db, () => rest('alice', method, path, json));
      expect({ status: result.status, reason: restReason(result.body) }).toEqual({
        status: 403,
        reason: 'ACCESS_POLICY_VIOLATION',
      });
      expect(after).toBe(before);
    });
  });

  describe('foreign keys are relations: an unreadable target answers exactly like a missing one', () => {
    const newComment = (relationships: object) =>
      doc({
        type: 'comment',
        attributes: { body: 'x' },
        relationships: { author: { data: ref('user', alice.id) }, ...relationships },
      });
    // [label, method, path, body for a target id, the hidden target, the missing target]
    const table: [string, Method, string, (id: string | number) => string, string | number, string | number][] = [
      [
        'POST /comment relationships.post',
        'post',
        'comment',
        (id) => newComment({ post: { data: ref('post', id) } }),
        P.bobDraft,
        M.post,
      ],
      [
        'POST /comment relationships.parent',
        'post',
        'comment',
        (id) => newComment({ post: { data: ref('post', P.alicePub) }, parent: { data: ref('comment', id) } }),
        C.onBobDraft,
        M.comment,
      ],
      [
        'PATCH /comment/:id relationships.post',
        'patch',
        `comment/${C.aliceOnAlicePub}`,
        (id) => doc({ type: 'comment', id: C.aliceOnAlicePub, relationships: { post: { data: ref('post', id) } } }),
        P.bobDraft,
        M.post,
      ],
      [
        'PATCH /comment/:id/relationships/post',
        'patch',
        `comment/${C.aliceOnAlicePub}/relationships/post`,
        (id) => doc(ref('post', id)),
        P.bobDraft,
        M.post,
      ],
      [
        'PATCH /comment/:id/relationships/parent',
        'patch',
        `comment/${C.aliceOnAlicePub}/relationships/parent`,
        (id) => doc(ref('comment', id)),
        C.onBobDraft,
        M.comment,
      ],
      [
        'POST /post/:id/relationships/comments',
        'post',
        `post/${P.alicePub}/relationships/comments`,
        (id) => doc([ref('comment', id)]),
        C.onBobDraft,
        M.comment,
      ],
      [
        'POST /like relationships.post',
        'post',
        'like',
        (id) =>
          doc({
            type: 'like',
            relationships: { user: { data: ref('user', alice.id) }, post: { data: ref('post', id) } },
          }),
        P.bobDraft,
        M.post,
      ],
      [
        'POST /tag relationships.posts',
        'post',
        'tag',
        (id) =>
          doc({ type: 'tag', attributes: { name: 'fresh' }, relationships: { posts: { data: [ref('post', id)] } } }),
        P.bobDraft,
        M.post,
      ],
    ];
    it.each(table)('%s', async (_label, method, path, build, hidden, missing) => {
      const {
        result: hiddenAnswer,
        before,
        after,
      } = await probeState(t.db, () => rest('alice', method, path, build(hidden)));
      const missingAnswer = await rest('alice', method, path, build(missing));
      expect(isClientError(hiddenAnswer.status)).toBe(true);
      expect(norm(hiddenAnswer, [hidden])).toBe(norm(missingAnswer, [missing]));
      expect(after).toBe(before);
    });
  });

  describe('implicit many-to-many links need the update rule of both sides and both rows readable', () => {
    const table: [string, Caller, Method, string, string][] = [
      [
        "USER tags another user's post (POST /tag relationships.posts)",
        'alice',
        'post',
        'tag',
        doc({ type: 'tag', attributes: { name: 'mine' }, relationships: { posts: { data: [ref('post', P.bobPub)] } } }),
      ],
      [
        'USER links a tag they may not update',
        'alice',
        'post',
        `post/${P.alicePub}/relationships/tags`,
        doc([ref('tag', T.secret)]),
      ],
      ['USER replaces the tags of their post', 'alice', 'patch', `post/${P.alicePub}/relationships/tags`, doc([])],
      [
        'USER removes a tag from their post',
        'alice',
        'delete',
        `post/${P.alicePub}/relationships/tags`,
        doc([ref('tag', T.news)]),
      ],
      [
        'USER makes the admin follow them',
        'alice',
        'post',
        `user/${alice.id}/relationships/followers`,
        doc([ref('user', admin.id)]),
      ],
      [
        'USER replaces their followers',
        'alice',
        'patch',
        `user/${alice.id}/relationships/followers`,
        doc([ref('user', admin.id)]),
      ],
      [
        "USER removes another user's follow",
        'alice',
        'delete',
        `user/${alice.id}/relationships/followers`,
        doc([ref('user', bob.id)]),
      ],
      [
        'USER follows a user they may not update',
        'alice',
        'post',
        `user/${alice.id}/relationships/following`,
        doc([ref('user', bob.id)]),
      ],
      [
        'ADMIN links a post they may not update',
        'admin',
        'post',
        `tag/${T.secret}/relationships/posts`,
        doc([ref('post', P.bobPub)]),
      ],
      [
        'ADMIN unlinks a post they cannot read (relationship endpoint)',
        'admin',
        'patch',
        `tag/${T.secret}/relationships/posts`,
        doc([]),
      ],
      [
        'ADMIN unlinks a post they cannot read (PATCH /tag/:id)',
        'admin',
        'patch',
        `tag/${T.secret}`,
        doc({ type: 'tag', id: String(T.secret), relationships: { posts: { data: [] } } }),
      ],
    ];
    it.each(table)('%s: refused, links unchanged', async (_label, who, method, path, json) => {
      const { result, before, after } = await probeState(t.db, () => rest(who, method, path, json));
      expect({ status: result.status, refused: [403, 404].includes(result.status) }).toEqual({
        status: result.status,
        refused: true,
      });
      expect(after).toBe(before);
    });
  });

  describe('oracles: a true and a false predicate over hidden data answer identically', () => {
    const table: [string, Caller, string, string][] = [
      [
        'filter on a hidden field',
        'anon',
        `user?filter[id]=${bob.id}&filter[passwordHash$startsWith]=hash-bob`,
        `user?filter[id]=${bob.id}&filter[passwordHash$startsWith]=zzz`,
      ],
      [
        'filter on a hidden field, equality',
        'anon',
        `user?filter[passwordHash]=hash-bob-7f3a9c`,
        `user?filter[passwordHash]=zzz`,
      ],
      [
        'filter on a hidden field through a relationship',
        'anon',
        'post?filter[author][passwordHash$startsWith]=hash-bob',
        'post?filter[author][passwordHash$startsWith]=zzz',
      ],
      ['sort by a hidden field', 'anon', 'user?sort=passwordHash', 'user?sort=-passwordHash'],
      [
        'sort by a hidden field through a relationship',
        'anon',
        'post?sort=author.passwordHash',
        'post?sort=-author.passwordHash',
      ],
      ['filter through hidden posts', 'alice', 'user?filter[posts][title]=bobDraft', 'user?filter[posts][title]=nope'],
      [
        'filter through hidden comments',
        'alice',
        'user?filter[comments][body]=secret%20comment',
        'user?filter[comments][body]=nope',
      ],
      [
        'filter through hidden likes',
        'alice',
        'user?filter[likes][post][title]=bobDraft',
        'user?filter[likes][post][title]=nope',
      ],
      [
        'filter by a hidden related id',
        'alice',
        `comment?filter[post]=${P.bobDraft}`,
        `comment?filter[post]=${M.post}`,
      ],
      ['filter tags by a hidden post id', 'alice', `tag?filter[posts]=${P.bobDraft}`, `tag?filter[posts]=${M.post}`],
      [
        'related collection filtered on hidden rows',
        'alice',
        `user/${bob.id}/posts?filter[title]=bobDraft`,
        `user/${bob.id}/posts?filter[title]=nope`,
      ],
      [
        '$null over hidden rows',
        'alice',
        `user?filter[id]=${bob.id}&filter[likes$null]=false`,
        `user?filter[id]=${admin.id}&filter[likes$null]=false`,
      ],
    ];
    it.each(table)('%s', async (_label, who, truthy, falsy) => {
      expect(norm(await rest(who, 'get', truthy))).toBe(norm(await rest(who, 'get', falsy)));
    });

    const rows: [string, (id: string | number) => string, string | number, string | number][] = [
      ['a hidden post vs a missing one', (id) => `post/${id}`, P.bobDraft, M.post],
      ['the comments of a hidden post', (id) => `post/${id}/comments`, P.bobDraft, M.post],
      ['the linkage of a hidden post', (id) => `post/${id}/relationships/tags`, P.bobDraft, M.post],
      ['a hidden comment vs a missing one', (id) => `comment/${id}`, C.onBobDraft, M.comment],
      ['the post of a hidden comment', (id) => `comment/${id}/post`, C.onBobDraft, M.comment],
    ];
    it.each(rows)('%s', async (_label, path, hiddenId, missingId) => {
      const hidden = await rest('alice', 'get', path(hiddenId));
      const missing = await rest('alice', 'get', path(missingId));
      expect(norm(hidden, [hiddenId])).toBe(norm(missing, [missingId]));
    });
  });

  describe('a hidden field answers exactly like a field that does not exist', () => {
    const UNKNOWN = 'passwordSalt';
    const table: [string, (field: string) => string][] = [
      ['fields[user]', (f) => `user?fields[user]=name,${f}`],
      ['filter', (f) => `user?filter[${f}]=x`],
      ['filter with an operator', (f) => `user?filter[${f}$startsWith]=x`],
      ['filter through a relationship', (f) => `post?filter[author][${f}]=x`],
      ['sort', (f) => `user?sort=${f}`],
      ['sort through a relationship', (f) => `post?sort=author.${f}`],
      ['fields[user] on included authors', (f) => `post?include=author&fields[user]=${f}`],
    ];
    it.each(table)('%s', async (_label, build) => {
      const hidden = await rest('alice', 'get', build('passwordHash'));
      const unknown = await rest('alice', 'get', build(UNKNOWN));
      expect(isClientError(hidden.status)).toBe(true);
      expect(norm(hidden, ['passwordHash'])).toBe(norm(unknown, [UNKNOWN]));
    });
  });
});

function withoutLinks(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLinks);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'links')
      .map(([key, v]) => [key, withoutLinks(v)]),
  );
}
