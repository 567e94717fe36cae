import type { DataModelMeta, FieldMeta, ModelMeta, ModelOperationsOption } from './model-meta.types.js';
import { prismaOperation } from './prisma-operations.js';

/** Lowercase-first model name: the `:type` / `{model}` segment of both interfaces. */
export function toTypeName(modelName: string): string {
  return modelName.charAt(0).toLowerCase() + modelName.slice(1);
}

/**
 * The exposed models, looked up by their URL name. Built once at start-up; lookups go through
 * `Map`s so a name such as `__proto__` or `constructor` can never reach an object prototype.
 *
 * @remarks Exported for subclasses of `RestService`/`RpcService`, which receive it in their constructor.
 */
export class ModelRegistry {
  private readonly byTypeName: ReadonlyMap<string, ModelMeta>;
  private readonly byModelName: ReadonlyMap<string, ModelMeta>;
  private readonly fieldMaps = new Map<string, ReadonlyMap<string, FieldMeta>>();

  private readonly operationRules = new Map<string, ModelOperationsOption>();
  private readonly visibleFields = new Map<string, readonly FieldMeta[]>();

  constructor(
    readonly meta: DataModelMeta,
    exposedModels?: readonly string[],
    operations: Readonly<Record<string, ModelOperationsOption>> = {},
  ) {
    const exposed = Object.values(meta.models).filter(
      (model) => !exposedModels || exposedModels.includes(model.name) || exposedModels.includes(toTypeName(model.name)),
    );
    this.byTypeName = new Map(exposed.map((model) => [toTypeName(model.name), model]));
    this.byModelName = new Map(exposed.map((model) => [model.name, model]));
    for (const model of exposed) {
      this.fieldMaps.set(model.name, new Map(Object.values(model.fields).map((field) => [field.name, field])));
      const rule = operations[model.name] ?? operations[toTypeName(model.name)];
      if (rule) this.operationRules.set(model.name, rule);
    }
  }

  /** Whether the `operations` option lets clients run this Prisma operation on the model. */
  allowsOperation(model: ModelMeta, operation: string): boolean {
    const rule = this.operationRules.get(model.name);
    if (!rule) return true;
    if (rule.readOnly && prismaOperation(operation)?.access !== 'read') return false;
    return !rule.exclude?.includes(operation);
  }

  get provider(): string {
    return this.meta.provider;
  }

  /** The exposed model behind a URL name (`post`), or undefined. */
  findByTypeName(typeName: string): ModelMeta | undefined {
    return this.byTypeName.get(typeName);
  }

  /** The exposed model with this Prisma name (`Post`), or undefined when it is not exposed. */
  findByModelName(modelName: string): ModelMeta | undefined {
    return this.byModelName.get(modelName);
  }

  isExposed(modelName: string): boolean {
    return this.byModelName.has(modelName);
  }

  /** A field of an exposed model; relation fields to models that are not exposed do not exist. */
  findField(model: ModelMeta, fieldName: string): FieldMeta | undefined {
    const field = this.fieldMaps.get(model.name)?.get(fieldName);
    if (field?.relation && !this.isExposed(field.relation.model)) return undefined;
    return field;
  }

  /** All fields a client may see: scalars, enums and relations to exposed models (computed once per model). */
  fieldsOf(model: ModelMeta): readonly FieldMeta[] {
    let fields = this.visibleFields.get(model.name);
    if (!fields) {
      fields = [...(this.fieldMaps.get(model.name)?.values() ?? [])].filter(
        (field) => !field.relation || this.isExposed(field.relation.model),
      );
      this.visibleFields.set(model.name, fields);
    }
    return fields;
  }

  /** The Prisma client delegate name of a model (`post` for `Post`). */
  delegateName(model: ModelMeta): string {
    return toTypeName(model.name);
  }

  get models(): ModelMeta[] {
    return [...this.byModelName.values()];
  }
}
