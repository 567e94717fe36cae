import fc from 'fast-check';

import { type CrudApiRules, RuleError } from '../../lib/index.js';
import { useTestApp } from '../support/test-app.js';
import { testProviders } from '../support/test-database.js';

const JSON_API = 'application/vnd.api+json';
const ATOMIC = 'application/vnd.api+json; ext="https://jsonapi.org/ext/atomic"';
const SEED = 26_0411;
const RUNS = 12;

/** A request sent with the others at once: one that rolls its transaction back, or a plain write. */
type Kind = 'refused-tag' | 'stale-if-match' | 'failing-atomic' | 'rpc-create' | 'rest-create';

const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

/**
 * A tag's hook writes in the create's transaction and then waits for other work (as an asynchronous
 * password hash does) before it accepts or refuses the tag: its transaction stays open while other
 * requests run.
 */
const RULES: CrudApiRules = {
  Tag: {
    beforeCreate: async ({ data, tx }) => {
      await tx.tag.create({ data: { name: `audit ${String(data.name)}` } });
      await pause();
      if (String(data.name).startsWith('refused')) throw new RuleError('Refused.', ['name']);
    },
  },
};

/**
 * Requests whose interactive transaction rolls back (a hook's refusal after its transaction waited,
 * a stale `If-Match`, an atomic request whose last operation fails) run together with plain writes:
 * each acknowledged write is there afterwards and nothing of a rolled-back request is. On SQLite the
 * driver adapter's single connection would otherwise run the plain writes inside an open
 * transaction and undo them with it.
 */
describe.each(testProviders())('transactions and the writes around them (%s)', (provider) => {
  let authorId: number;
  let guardedId: number;
  const t = useTestApp(provider, {
    options: { rules: RULES },
    seed: async ({ db }) => {
      authorId = (await db.prisma.user.create({ data: { email: 'iso@example.com', name: 'Iso' } })).id;
      guardedId = (await db.prisma.post.create({ data: { title: 'guarded', authorId } })).id;
    },
  });

  let serial = 0;
  const send = (kind: Kind) => {
    const n = (serial += 1);
    const title = `${kind} ${n}`;
    const http = t.http();
    switch (kind) {
      case 'refused-tag':
        return http
          .post('/api/rpc/tag/create')
          .send({ data: { name: `refused ${n}` } })
          .then((res) => ({ kind, title: `audit refused ${n}`, res }));
      case 'stale-if-match':
        return http
          .patch(`/api/rest/post/${guardedId}`)
          .set('Content-Type', JSON_API)
          .set('If-Match', '"0000000000000000"')
          .send({ data: { type: 'post', id: String(guardedId), attributes: { title } } })
          .then((res) => ({ kind, title, res }));
      case 'failing-atomic':
        return http
          .post('/api/rest/operations')
          .set('Content-Type', ATOMIC)
          .set('Accept', ATOMIC)
          .send({
            'atomic:operations': [
              {
                op: 'add',
                data: {
                  type: 'post',
                  attributes: { title },
                  relationships: { author: { data: { type: 'user', id: String(authorId) } } },
                },
              },
              { op: 'remove', ref: { type: 'post', id: '999999999' } },
            ],
          })
          .then((res) => ({ kind, title, res }));
      case 'rpc-create':
        return http
          .post('/api/rpc/post/create')
          .send({ data: { title, authorId } })
          .then((res) => ({ kind, title, res }));
      case 'rest-create':
        return http
          .post('/api/rest/post')
          .set('Content-Type', JSON_API)
          .send({
            data: {
              type: 'post',
              attributes: { title },
              relationships: { author: { data: { type: 'user', id: String(authorId) } } },
            },
          })
          .then((res) => ({ kind, title, res }));
    }
  };

  it('keeps every acknowledged write and nothing of a rolled-back request', async () => {
    const kinds = fc.constantFrom<Kind>('refused-tag', 'stale-if-match', 'failing-atomic', 'rpc-create', 'rest-create');
    const expected: Record<Kind, number> = {
      'refused-tag': 400,
      'stale-if-match': 412,
      'failing-atomic': 404,
      'rpc-create': 201,
      'rest-create': 201,
    };
    await fc.assert(
      fc.asyncProperty(fc.array(kinds, { minLength: 6, maxLength: 16 }), async (batch) => {
        const answers = await Promise.all(batch.map(send));
        const titles = new Set([
          ...(await t.db.prisma.post.findMany({ select: { title: true } })).map((post) => post.title),
          ...(await t.db.prisma.tag.findMany({ select: { name: true } })).map((tag) => tag.name),
        ]);
        for (const { kind, title, res } of answers) {
          expect([kind, res.status]).toEqual([kind, expected[kind]]);
          expect([title, titles.has(title)]).toEqual([title, expected[kind] === 201]);
        }
        expect(titles.has('guarded')).toBe(true);
      }),
      { seed: SEED, numRuns: RUNS },
    );
  });
});
