/**
 * A Standard Schema that accepts any value and describes itself with `input`, a Standard JSON
 * Schema converter: what the OpenAPI documents read of a rule's schema, and nothing else does.
 */
export function describedSchema(input: () => Record<string, unknown>) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'custom',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input, output: () => ({}) },
    },
  };
}
