import { modelMeta } from '../../../fixtures/generated/sqlite/crud-api/index.js';
import { ModelRegistry } from '../../metadata/model-registry.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import { DEFAULT_LIMITS } from '../../options/option-table.js';
import type { PolicyInspector } from '../../policies/with-policies.js';
import { NO_FIELD_MODES } from '../../rules/field-modes.js';
import { VisibleFields } from '../visible-fields.js';
import { frozenQuery, readQuery } from './read-query.js';

const registry = new ModelRegistry(modelMeta);
const options = { limits: DEFAULT_LIMITS, idDivider: '_', pageSize: 100 } as ResolvedCrudApiOptions;
const hiding: PolicyInspector = {
  hiddenFields: (model) => new Set(model === 'User' ? ['passwordHash'] : []),
  readsEveryRow: () => true,
  fieldModes: () => NO_FIELD_MODES,
};

function read(type: string, search: string, policies?: PolicyInspector) {
  return () =>
    readQuery(new VisibleFields(registry, policies), options, registry.findByTypeName(type)!, search, {
      collection: true,
      kind: 'read',
    });
}

/** What a client would see of a refusal, with one field name replaced so two refusals compare. */
function refusal(type: string, search: string, name: string) {
  try {
    read(type, search, hiding)();
  } catch (error) {
    const { code, message, options: extra } = error as { code: string; message: string; options: object };
    return JSON.stringify({ code, message, extra }).replaceAll(name, 'NAME');
  }
  throw new Error(`${search} was accepted`);
}

describe('readQuery: hidden fields are unknown fields', () => {
  it.each([
    ['user', 'fields[user]=name,passwordHash'],
    ['user', 'filter[passwordHash]=x'],
    ['user', 'filter[passwordHash$startsWith]=x'],
    ['user', 'sort=-passwordHash'],
    ['post', 'filter[author][passwordHash]=x'],
    ['post', 'sort=author.passwordHash'],
    ['post', 'fields[user]=passwordHash'],
  ])('%s?%s answers like a field that does not exist', (type, search) => {
    expect(refusal(type, search, 'passwordHash')).toEqual(
      refusal(type, search.replace('passwordHash', 'passwordHasx'), 'passwordHasx'),
    );
    expect(read(type, search)).not.toThrow();
  });
});

describe('readQuery: what a request can cost', () => {
  const parameter = (name: string) =>
    expect.objectContaining({ code: 'invalid-query-parameter', options: { source: { parameter: name } } });

  it('bounds filter selector chains by maxFilterDepth (4)', () => {
    expect(read('post', 'filter[author][posts][author][name]=x')).not.toThrow();
    const deep = `filter${'[author][posts]'.repeat(20)}[title]`;
    expect(read('post', `${deep}=x`)).toThrow(parameter(deep));
  });

  it('bounds sort paths by the same depth and refuses a field sorted twice', () => {
    expect(read('comment', 'sort=post.author.profile.bio')).not.toThrow();
    expect(read('comment', 'sort=parent.parent.parent.parent.body')).toThrow(parameter('sort'));
    expect(read('post', 'sort=title,-title')).toThrow(parameter('sort'));
  });
});

describe('readQuery: no query string', () => {
  it('parses the same whatever the caller may see, so one parse can serve every caller', () => {
    for (const type of ['user', 'post', 'comment']) {
      expect(read(type, '', hiding)()).toEqual(read(type, '')());
    }
  });

  it('shares it frozen: a change to the shared query fails instead of reaching other requests', () => {
    const query = frozenQuery(read('post', '')());
    expect(() => query.orderBy.push({ title: 'asc' })).toThrow(TypeError);
    expect(() => Object.assign(query.orderBy[0]!, { id: 'desc' })).toThrow(TypeError);
    expect(() => Object.assign(query.page, { offset: 5 })).toThrow(TypeError);
    expect(() => Object.assign(query, { where: { id: 1 } })).toThrow(TypeError);
  });
});
