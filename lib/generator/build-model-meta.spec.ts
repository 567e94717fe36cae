import { createRequire } from 'node:module';

import type { DMMF } from '@prisma/generator-helper';

import { buildModelMeta } from './build-model-meta.js';
import { renderModelMetaModule } from './render-model-meta.js';

// Prisma's own schema parser (WebAssembly, on npm) gives the same DMMF a generator receives.
const schemaWasm = createRequire(import.meta.url)('@prisma/prisma-schema-wasm') as {
  get_dmmf(params: string): string;
};

const schema = `
datasource db {
  provider = "postgresql"
}

enum Kind {
  A
  B
}

model Person {
  id        Int       @id @default(autoincrement())
  email     String    @unique
  tags      String[]
  nickname  String?
  kind      Kind      @default(A)
  updatedAt DateTime  @updatedAt
  passport  Passport?
  pets      Pet[]
  clubs     Club[]
  manager   Person?   @relation("Management", fields: [managerId], references: [id])
  managerId Int?
  reports   Person[]  @relation("Management")
  friends   Person[]  @relation("Friends")
  friendOf  Person[]  @relation("Friends")
  visits    Visit[]
}

model Passport {
  number   String @id
  holder   Person @relation(fields: [holderId], references: [id])
  holderId Int    @unique
}

model Pet {
  id      String @id @default(uuid())
  owner   Person @relation(fields: [ownerId], references: [id])
  ownerId Int
}

model Club {
  id      Int      @id
  members Person[]
}

model Place {
  code   String
  region String
  visits Visit[]

  @@id([code, region])
  @@map("places")
}

model Visit {
  person      Person @relation(fields: [personId], references: [id])
  personId    Int
  place       Place  @relation(fields: [placeCode, placeRegion], references: [code, region])
  placeCode   String
  placeRegion String
  ticket      String

  @@id([personId, placeCode, placeRegion])
  @@unique([personId, ticket], name: "personTicket")
}
`;

function dmmfOf(source: string): DMMF.Datamodel {
  const result = JSON.parse(schemaWasm.get_dmmf(JSON.stringify({ prismaSchema: [['schema.prisma', source]] })));
  return result.datamodel as DMMF.Datamodel;
}

describe('buildModelMeta', () => {
  const meta = buildModelMeta(dmmfOf(schema), 'postgresql');
  const person = meta.models.Person!;

  it('records the provider and the enums', () => {
    expect(meta.provider).toBe('postgresql');
    expect(meta.enums).toEqual({ Kind: ['A', 'B'] });
  });

  it('describes scalar fields: type, list, optional, id, unique, default, updatedAt', () => {
    expect(person.idFields).toEqual(['id']);
    expect(person.fields.id).toMatchObject({ kind: 'scalar', type: 'Int', isId: true, hasDefault: true });
    expect(person.fields.email).toMatchObject({ isUnique: true, isOptional: false });
    expect(person.fields.tags).toMatchObject({ type: 'String', isList: true });
    expect(person.fields.nickname).toMatchObject({ isOptional: true });
    expect(person.fields.kind).toMatchObject({ kind: 'enum', type: 'Kind', hasDefault: true });
    expect(person.fields.updatedAt).toMatchObject({ isUpdatedAt: true });
  });

  it('describes one-to-one relations from both sides', () => {
    expect(person.fields.passport).toMatchObject({
      kind: 'relation',
      isList: false,
      isOptional: true,
      relation: { model: 'Passport', fields: [], references: [], oppositeField: 'holder' },
    });
    expect(meta.models.Passport!.fields.holder!.relation).toMatchObject({
      model: 'Person',
      fields: ['holderId'],
      references: ['id'],
      oppositeField: 'passport',
    });
    expect(meta.models.Passport!.fields.holderId).toMatchObject({ isForeignKey: true, isUnique: true });
  });

  it('describes one-to-many relations', () => {
    expect(person.fields.pets).toMatchObject({
      isList: true,
      relation: { model: 'Pet', fields: [], oppositeField: 'owner' },
    });
    expect(meta.models.Pet!.fields.owner!.relation).toMatchObject({ fields: ['ownerId'], oppositeField: 'pets' });
    expect(meta.models.Pet!.idFields).toEqual(['id']);
  });

  it('describes implicit many-to-many relations', () => {
    expect(person.fields.clubs).toMatchObject({
      isList: true,
      relation: { model: 'Club', fields: [], oppositeField: 'members' },
    });
    expect(meta.models.Club!.fields.members).toMatchObject({
      isList: true,
      relation: { model: 'Person', oppositeField: 'clubs' },
    });
  });

  it('pairs the two sides of self relations', () => {
    expect(person.fields.manager!.relation).toMatchObject({
      model: 'Person',
      fields: ['managerId'],
      oppositeField: 'reports',
    });
    expect(person.fields.reports!.relation).toMatchObject({ model: 'Person', fields: [], oppositeField: 'manager' });
    expect(person.fields.friends!.relation).toMatchObject({ model: 'Person', oppositeField: 'friendOf' });
    expect(person.fields.friendOf!.relation).toMatchObject({ model: 'Person', oppositeField: 'friends' });
    expect(person.fields.managerId).toMatchObject({ isForeignKey: true });
  });

  it('describes explicit many-to-many with compound ids, compound foreign keys and named uniques', () => {
    const visit = meta.models.Visit!;
    expect(visit.idFields).toEqual(['personId', 'placeCode', 'placeRegion']);
    expect(visit.fields.place!.relation).toMatchObject({
      model: 'Place',
      fields: ['placeCode', 'placeRegion'],
      references: ['code', 'region'],
    });
    expect(visit.uniqueConstraints).toEqual([
      { name: 'personId_placeCode_placeRegion', fields: ['personId', 'placeCode', 'placeRegion'] },
      { name: 'personTicket', fields: ['personId', 'ticket'] },
    ]);
    expect(meta.models.Place!.idFields).toEqual(['code', 'region']);
    // The table name, for statistics queries; absent when the model name is the table name.
    expect(meta.models.Place!.dbName).toBe('places');
    expect(visit.dbName).toBeUndefined();
    expect(person.uniqueConstraints).toEqual([
      { name: 'id', fields: ['id'] },
      { name: 'email', fields: ['email'] },
    ]);
  });

  it('renders a module that exports the metadata as a literal', () => {
    const source = renderModelMetaModule(meta);
    expect(source).toContain('export const modelMeta = ');
    const literal = source.slice(source.indexOf('=') + 1, source.lastIndexOf(' as const'));
    expect(JSON.parse(literal)).toEqual(meta);
  });
});
