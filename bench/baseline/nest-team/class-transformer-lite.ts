import type { Type, ValidationPipeOptions } from '@nestjs/common';

// class-transformer is not among the project's dependencies, and ValidationPipe needs one: this is
// the part of it the Nest-team baseline uses, `plainToInstance` with nested classes declared by
// `@Nested` (class-transformer's `@Type`). It does less than class-transformer (no `@Expose`, no
// conversions), so it can only make the baseline faster than the one it stands for.

const NESTED = Symbol('nested classes');

type NestedClasses = Record<string, () => Type>;

/** The class of a nested object (or of each item of a nested array), which class-validator then validates. */
export function Nested(type: () => Type): PropertyDecorator {
  return (target, key) => {
    const owner = target as { [NESTED]?: NestedClasses };
    if (!Object.hasOwn(owner, NESTED)) owner[NESTED] = { ...owner[NESTED] };
    owner[NESTED]![String(key)] = type;
  };
}

function toInstance(cls: Type, plain: unknown): unknown {
  if (Array.isArray(plain)) return plain.map((item) => toInstance(cls, item));
  if (typeof plain !== 'object' || plain === null) return plain;
  const instance = Object.assign(Object.create(cls.prototype) as object, plain) as Record<string, unknown>;
  const nested = (cls.prototype as { [NESTED]?: NestedClasses })[NESTED] ?? {};
  for (const key in nested) if (key in instance) instance[key] = toInstance(nested[key]!(), instance[key]);
  return instance;
}

/** What ValidationPipe and ParseArrayPipe call of class-transformer. */
export const classTransformerLite: NonNullable<ValidationPipeOptions['transformerPackage']> = {
  plainToInstance: (cls, plain) => toInstance(cls, plain) as never,
  classToPlain: (object) => object as Record<string, unknown>,
};
