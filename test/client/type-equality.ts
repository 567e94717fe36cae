/** Exact type equality (not mere assignability), the check `expect-type`'s `toEqualTypeOf` makes. */
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when `Actual` and `Expected` are the same type; does nothing at run time. */
export function expectTypeEqual<Actual, Expected>(
  ..._proof: Equal<Actual, Expected> extends true ? [] : [never]
): void {}
