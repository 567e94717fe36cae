import type { DMMF } from '@prisma/generator-helper';

import type {
  DataModelMeta,
  FieldMeta,
  ModelMeta,
  RelationMeta,
  UniqueConstraintMeta,
} from '../metadata/model-meta.types.js';

/** Turns Prisma's DMMF datamodel into the metadata the APIs read at run time. */
export function buildModelMeta(datamodel: DMMF.Datamodel, provider: string): DataModelMeta {
  const models: Record<string, ModelMeta> = {};
  for (const model of datamodel.models) {
    models[model.name] = buildModel(model, datamodel.models);
  }
  const enums: Record<string, string[]> = {};
  for (const enumDef of datamodel.enums) {
    enums[enumDef.name] = enumDef.values.map((value) => value.name);
  }
  return { provider, models, enums };
}

function buildModel(model: DMMF.Model, allModels: readonly DMMF.Model[]): ModelMeta {
  const foreignKeys = new Set(
    model.fields.flatMap((field) => (field.kind === 'object' ? (field.relationFromFields ?? []) : [])),
  );
  const fields: Record<string, FieldMeta> = {};
  for (const field of model.fields) {
    fields[field.name] = buildField(model, field, foreignKeys, allModels);
  }
  const idFields = model.primaryKey
    ? [...model.primaryKey.fields]
    : model.fields.filter((field) => field.isId).map((field) => field.name);
  return {
    name: model.name,
    ...(model.dbName ? { dbName: model.dbName } : {}),
    idFields,
    uniqueConstraints: uniqueConstraintsOf(model, idFields),
    fields,
  };
}

function buildField(
  model: DMMF.Model,
  field: DMMF.Field,
  foreignKeys: ReadonlySet<string>,
  allModels: readonly DMMF.Model[],
): FieldMeta {
  const isRelation = field.kind === 'object';
  return {
    name: field.name,
    kind: isRelation ? 'relation' : field.kind === 'enum' ? 'enum' : 'scalar',
    type: field.type,
    isList: field.isList,
    isOptional: !field.isRequired,
    isId: field.isId,
    isUnique: field.isUnique,
    hasDefault: field.hasDefaultValue,
    isUpdatedAt: field.isUpdatedAt ?? false,
    isForeignKey: foreignKeys.has(field.name),
    relation: isRelation
      ? {
          name: field.relationName ?? '',
          model: field.type,
          fields: [...(field.relationFromFields ?? [])],
          references: [...(field.relationToFields ?? [])],
          oppositeField: oppositeFieldOf(model, field, allModels),
          ...(field.relationFromFields?.length
            ? {
                onDelete: (field.relationOnDelete ??
                  (field.isRequired ? 'Restrict' : 'SetNull')) as RelationMeta['onDelete'],
              }
            : {}),
        }
      : null,
  };
}

/** The field on the other side of the same relation; for a self relation, the other of the pair. */
function oppositeFieldOf(model: DMMF.Model, field: DMMF.Field, allModels: readonly DMMF.Model[]): string | null {
  const target = allModels.find((candidate) => candidate.name === field.type);
  const opposite = target?.fields.find(
    (candidate) =>
      candidate.kind === 'object' &&
      candidate.relationName === field.relationName &&
      candidate.type === model.name &&
      candidate.name !== field.name,
  );
  return opposite?.name ?? null;
}

function uniqueConstraintsOf(model: DMMF.Model, idFields: readonly string[]): UniqueConstraintMeta[] {
  const constraints: UniqueConstraintMeta[] = [];
  if (idFields.length > 0) {
    constraints.push({ name: model.primaryKey?.name ?? idFields.join('_'), fields: [...idFields] });
  }
  for (const field of model.fields) {
    if (field.isUnique) constraints.push({ name: field.name, fields: [field.name] });
  }
  for (const index of model.uniqueIndexes) {
    constraints.push({ name: index.name ?? index.fields.join('_'), fields: [...index.fields] });
  }
  return constraints;
}
