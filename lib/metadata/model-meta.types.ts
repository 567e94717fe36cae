/**
 * What the APIs need to know about the data model and the generated Prisma client does not carry
 * at run time. Written by the `nestjs-crud-api-generator` Prisma generator; every member is
 * readonly so the generated `as const` literal is assignable as it is.
 */
export type ScalarType = 'String' | 'Int' | 'Float' | 'Boolean' | 'DateTime' | 'Json' | 'Decimal' | 'BigInt' | 'Bytes';

export interface RelationMeta {
  /** Prisma's relation name (shared by both sides). */
  readonly name: string;
  /** Name of the related model. */
  readonly model: string;
  /** Scalar fields of this model that hold the foreign key (empty on the referenced side). */
  readonly fields: readonly string[];
  /** Fields of the related model that the foreign key references. */
  readonly references: readonly string[];
  /** The relation field on the related model that points back, if any. */
  readonly oppositeField: string | null;
  /**
   * On the side holding the foreign key: what the database does to this row when the related row is
   * deleted (`onDelete`, Prisma's default when the schema gives none: `SetNull` for an optional
   * relation, `Restrict` for a required one).
   */
  readonly onDelete?: 'Cascade' | 'SetNull' | 'SetDefault' | 'Restrict' | 'NoAction';
}

export interface FieldMeta {
  readonly name: string;
  readonly kind: 'scalar' | 'enum' | 'relation';
  /** Scalar type, enum name or related model name. */
  readonly type: string;
  readonly isList: boolean;
  readonly isOptional: boolean;
  readonly isId: boolean;
  readonly isUnique: boolean;
  readonly hasDefault: boolean;
  readonly isUpdatedAt: boolean;
  /** A scalar field that backs a relation. */
  readonly isForeignKey: boolean;
  readonly relation: RelationMeta | null;
}

export interface UniqueConstraintMeta {
  /** Prisma's name for the compound selector (`userId_postId`), or the field name for one field. */
  readonly name: string;
  readonly fields: readonly string[];
}

export interface ModelMeta {
  readonly name: string;
  /** The table's name when `@@map` gives it one (the model name otherwise). */
  readonly dbName?: string;
  /** Fields forming the primary key, in order (several for a compound `@@id`). */
  readonly idFields: readonly string[];
  /** Every unique selector, the primary key first. */
  readonly uniqueConstraints: readonly UniqueConstraintMeta[];
  readonly fields: Readonly<Record<string, FieldMeta>>;
}

export interface DataModelMeta {
  /** Datasource provider of the schema (`sqlite`, `postgresql`, ...). */
  readonly provider: string;
  readonly models: Readonly<Record<string, ModelMeta>>;
  readonly enums: Readonly<Record<string, readonly string[]>>;
}

/** One model's entry of the `operations` option: the Prisma operations clients may run. */
export interface ModelOperationsOption {
  /** Only reads (find*, count, aggregate, groupBy; REST GETs). */
  readOnly?: boolean;
  /** Prisma operation names refused for this model (REST routes map to create/update/delete). */
  exclude?: string[];
}
