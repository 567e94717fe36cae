import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { FIELD_MODE_RULES, fieldModeInspector } from '../../../test/support/field-mode-fixtures.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import { NO_FIELD_MODES } from '../../rules/field-modes.js';
import { InvalidValue } from '../../rules/invalid-value.js';
import { VisibleFields } from '../visible-fields.js';
import { documentData, parseResourceDocument } from './parse-resource-document.js';
import { writableRelationship } from './relationship-data.js';

const registry = new ModelRegistry(modelMeta);
const hiding: PolicyInspector = {
  hiddenFields: (model) => new Set(model === 'User' ? ['passwordHash'] : []),
  readsEveryRow: () => true,
  fieldModes: () => NO_FIELD_MODES,
};
const scope = (policies?: PolicyInspector) => ({
  fields: new VisibleFields(registry, policies),
  idDivider: '_',
  maxJsonDepth: 8,
});
const user = registry.findByTypeName('user')!;
const post = registry.findByTypeName('post')!;

const refusal = (pointer: string, code = 'invalid-payload') =>
  expect.objectContaining({ code, options: { source: { pointer } } });
const parseUser = (body: unknown, policies?: PolicyInspector) => () =>
  parseResourceDocument(scope(policies), user, body);
const parsePost = (body: unknown) => () => parseResourceDocument(scope(), post, body, { id: 1 });

describe('parseResourceDocument: JSON:API 1.1 members', () => {
  const valid = { data: { type: 'user', attributes: { email: 'a@b', name: 'A' } } };

  it('accepts meta, jsonapi and links at the top and in the resource, and included beside data', () => {
    const body = { ...valid, meta: {}, jsonapi: { version: '1.1' }, links: {}, included: [{ type: 'post', id: '1' }] };
    expect(parseUser({ ...body, data: { ...valid.data, meta: { a: 1 }, links: {}, lid: 'x' } })()).toMatchObject({
      data: { email: 'a@b', name: 'A' },
    });
  });

  it.each([
    [{ ...valid, errors: [] }, '/errors'],
    [{ ...valid, extra: 1 }, '/extra'],
    [{ ...valid, meta: 'x' }, '/meta'],
    [{ ...valid, included: {} }, '/included'],
    [{ ...valid, included: [{ type: 'post', bogus: 1 }] }, '/included/0/bogus'],
    [{ data: { ...valid.data, extra: 1 } }, '/data/extra'],
    [{ data: { ...valid.data, lid: 5 } }, '/data/lid'],
    [{ data: { ...valid.data, meta: [] } }, '/data/meta'],
    [{ data: { ...valid.data, id: {} } }, '/data/id'],
    [{ data: { ...valid.data, relationships: { posts: { data: [], extra: 1 } } } }, '/data/relationships/posts/extra'],
    [
      { data: { ...valid.data, relationships: { posts: { data: [{ type: 'post', id: 1, attributes: {} }] } } } },
      '/data/relationships/posts/data/0',
    ],
    [{ data: { ...valid.data, attributes: { 'a/b': 1 } } }, '/data/attributes/a~1b'],
    [{ data: { ...valid.data, attributes: { ['x'.repeat(1000)]: 1 } } }, '/data/attributes'],
    [JSON.parse('{"data":{"type":"user","attributes":{"__proto__":{"x":1}}}}'), '/data/attributes/__proto__'],
    [JSON.parse('{"data":{"type":"user","meta":{"constructor":1}}}'), '/data/meta/constructor'],
    [[], ''],
    ['text', ''],
    [null, ''],
  ])('refuses %j at %s', (body, pointer) => {
    expect(parseUser(body)).toThrow(refusal(pointer));
  });

  it('refuses prototype keys inside Json attribute values', () => {
    expect(parsePost(JSON.parse('{"data":{"type":"post","attributes":{"metadata":{"a":[{"prototype":1}]}}}}'))).toThrow(
      refusal('/data/attributes/metadata/a/0/prototype'),
    );
  });

  it('refuses bodies nested deeper than maxJsonDepth (8 here) without recursing', () => {
    let metadata: unknown = 1;
    for (let i = 0; i < 100_000; i += 1) metadata = { a: metadata };
    expect(parsePost({ data: { type: 'post', attributes: { metadata } } })).toThrow(
      refusal('/data/attributes/metadata/a/a/a/a/a'),
    );
  });

  it('quotes at most a prefix of a huge type in the conflict message', () => {
    const type = 't'.repeat(1_000_000);
    expect(parseUser({ data: { type } })).toThrow(
      expect.objectContaining({ code: 'conflict', message: expect.stringMatching(/^"data\.type" is "t{100}…" but/) }),
    );
  });

  it('checks the relationship endpoint document the same way', () => {
    expect(() => documentData(scope(), { data: [], errors: [] })).toThrow(refusal('/errors'));
    expect(documentData(scope(), { data: [{ type: 'tag', id: 1 }], meta: {} })).toEqual([{ type: 'tag', id: 1 }]);
  });
});

describe('parseResourceDocument: hidden fields', () => {
  it('answers a hidden attribute exactly like an unknown one', () => {
    const attempt = (name: string) => {
      try {
        parseUser({ data: { type: 'user', attributes: { [name]: 'x' } } }, hiding)();
      } catch (error) {
        const { code, message, options } = error as { code: string; message: string; options: object };
        return { code, message: message.replace(name, 'NAME'), options: JSON.stringify(options).replace(name, 'NAME') };
      }
      return undefined;
    };
    expect(attempt('passwordHash')).toEqual(attempt('passwordHasx'));
    expect(attempt('passwordHash')).toMatchObject({ code: 'invalid-payload' });
    expect(
      parseUser({ data: { type: 'user', attributes: { email: 'a', name: 'b', passwordHash: 'x' } } })(),
    ).toMatchObject({ data: { passwordHash: 'x' } });
  });
});

describe('parseResourceDocument: field modes', () => {
  const modes = fieldModeInspector(FIELD_MODE_RULES);
  const create =
    (model: 'user' | 'post', resource: object, policies: PolicyInspector = modes) =>
    () =>
      parseResourceDocument(scope(policies), registry.findByTypeName(model)!, { data: { type: model, ...resource } });
  const update = (resource: object) => () =>
    parseResourceDocument(scope(modes), post, { data: { type: 'post', ...resource } }, { id: 1 });
  const serverSet = (pointer: string) =>
    expect.objectContaining({
      code: 'invalid-payload',
      message: expect.stringContaining('is set by the server'),
      options: { source: { pointer } },
    });

  it('accepts write-only columns and virtual fields, decoded by their declared type', () => {
    const attributes = { email: 'a@b', name: 'A', passwordHash: 'h', password: 'secret', inviteCode: 7 };
    expect(create('user', { attributes })().data).toEqual(attributes);
    // The write rules report a value of the wrong type with the write's other issues.
    const left = create('user', { attributes: { inviteCode: '7', password: 1 } })().data;
    expect(left.inviteCode).toEqual(
      new InvalidValue('"inviteCode" must be an integer between -2147483648 and 2147483647.', 'invalid-type', {
        pointer: '/data/attributes/inviteCode',
      }),
    );
    expect(left.password).toBeInstanceOf(InvalidValue);
  });

  it('refuses every value of the wrong type at once when no write rules would report them', () => {
    const attributes = { email: 1, name: 'A', role: 'GOD' };
    expect(parseUser({ data: { type: 'user', attributes } })).toThrow(
      expect.objectContaining({
        code: 'validation-failed',
        options: {
          issues: [
            expect.objectContaining({
              path: ['data', 'email'],
              pointer: '/data/attributes/email',
              code: 'invalid-type',
            }),
            expect.objectContaining({ path: ['data', 'role'], pointer: '/data/attributes/role', code: 'invalid-enum' }),
          ],
        },
      }),
    );
  });

  it('refuses server-set attributes and relationships through a server-set key, on create and update', () => {
    expect(create('user', { attributes: { role: 'ADMIN' } })).toThrow(serverSet('/data/attributes/role'));
    expect(create('post', { attributes: { authorId: 1 } })).toThrow(serverSet('/data/attributes/authorId'));
    const author = { author: { data: { type: 'user', id: '1' } } };
    expect(create('post', { relationships: author })).toThrow(serverSet('/data/relationships/author'));
    expect(update({ relationships: author })).toThrow(serverSet('/data/relationships/author'));
    expect(update({ attributes: { authorId: 2 } })).toThrow(serverSet('/data/attributes/authorId'));
    expect(update({ relationships: { tags: { data: [] } } })().data).toEqual({ tags: { set: [] } });
  });

  it('answers internal columns exactly like unknown attributes', () => {
    const message = (name: string) => {
      try {
        create('user', { attributes: { [name]: '2020-01-01' } })();
      } catch (error) {
        return (error as Error).message.replace(name, 'NAME');
      }
    };
    expect(message('createdAt')).toBe(message('createdAx'));
    expect(create('user', { attributes: { createdAt: 'x' } })).toThrow(refusal('/data/attributes/createdAt'));
  });

  it('answers a server-set field the policies hide like an unknown one', () => {
    const hidden = fieldModeInspector(FIELD_MODE_RULES, { User: { fields: { read: { role: false } } } });
    expect(create('user', { attributes: { role: 'ADMIN' } }, hidden)).toThrow(
      expect.objectContaining({ message: 'Unknown attribute "role".' }),
    );
  });

  it('refuses a server-set relationship on the relationship routes and operations', () => {
    const author = registry.findField(post, 'author')!;
    const tags = registry.findField(post, 'tags')!;
    expect(() => writableRelationship(scope(modes), post, author, '/ref/relationship')).toThrow(
      serverSet('/ref/relationship'),
    );
    expect(() => writableRelationship(scope(modes), post, author)).toThrow(expect.objectContaining({ options: {} }));
    expect(writableRelationship(scope(modes), post, tags)).toBe(tags);
    expect(writableRelationship(scope(), post, author)).toBe(author);
  });
});
