import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { FieldMeta, ModelMeta } from '../metadata/model-meta.types.js';
import { inClientForm } from './input-form.js';

const { Comment } = modelMeta.models;
const models: Readonly<Record<string, ModelMeta>> = modelMeta.models;
const related = (name: string): ModelMeta => models[name]!;
const connect = (id: unknown) => ({ connect: { id } });

describe('inClientForm', () => {
  it('leaves data in the column form as it is', () => {
    const data = { body: 'b', postId: 1, authorId: 2 };
    expect(inClientForm(Comment, data, { body: 'b', postId: 1 }, 'create', related)).toBe(data);
  });

  it("writes the server's keys as relations when the data writes a relation that holds a key", () => {
    const input = { body: 'b', post: connect(1) };
    expect(inClientForm(Comment, { ...input, authorId: 2 }, input, 'create', related)).toEqual({
      body: 'b',
      post: connect(1),
      author: connect(2),
    });
    const update = { parent: connect('p') };
    expect(inClientForm(Comment, { ...update, authorId: { set: 3 } }, update, 'update', related)).toEqual({
      parent: connect('p'),
      author: connect(3),
    });
  });

  it('says a null key as the relation does: left out on a create, disconnected on an update', () => {
    const input = { body: 'b', post: connect(1) };
    expect(inClientForm(Comment, { ...input, authorId: null }, input, 'create', related)).toEqual(input);
    expect(inClientForm(Comment, { ...input, authorId: null }, input, 'update', related)).toEqual({
      ...input,
      author: { disconnect: true },
    });
  });

  it("leaves the client's own keys, a computed key and a relation the data already writes", () => {
    const mixed = { body: 'b', postId: 1, parent: connect('p') };
    expect(inClientForm(Comment, { ...mixed, authorId: 2 }, mixed, 'create', related)).toEqual({
      ...mixed,
      author: connect(2),
    });
    const computed = { parent: connect('p'), authorId: { increment: 1 } };
    expect(inClientForm(Comment, computed, { parent: connect('p') }, 'update', related)).toBe(computed);
    const both = { author: { update: { name: 'n' } }, authorId: 2 };
    expect(inClientForm(Comment, both, { author: both.author }, 'update', related)).toBe(both);
  });

  it('names a row referenced by several columns with its compound selector', () => {
    const target: ModelMeta = {
      name: 'Project',
      idFields: ['organizationId', 'id'],
      uniqueConstraints: [{ name: 'organizationId_id', fields: ['organizationId', 'id'] }],
      fields: {},
    };
    // A to-one relation of the fixture, renamed: the schema has no compound foreign key.
    const relation = (name: string, model: string, fields: string[], references: string[]): FieldMeta => ({
      ...Comment.fields.post!,
      name,
      type: model,
      relation: { name, model, fields, references, oppositeField: null },
    });
    const task: ModelMeta = {
      name: 'Task',
      idFields: ['id'],
      uniqueConstraints: [],
      fields: {
        project: relation('project', 'Project', ['projectOrg', 'projectId'], ['organizationId', 'id']),
        owner: relation('owner', 'User', ['ownerId'], ['id']),
      },
    };
    const input = { title: 't', owner: connect(1) };
    const data = { ...input, projectOrg: 7, projectId: 9 };
    expect(inClientForm(task, data, input, 'create', () => target)).toEqual({
      ...input,
      project: { connect: { organizationId_id: { organizationId: 7, id: 9 } } },
    });
  });
});
