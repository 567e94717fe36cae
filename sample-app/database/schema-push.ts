import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

/**
 * An offline `prisma db push` for an empty database: Prisma's schema engine compiled to
 * WebAssembly (on npm) computes the DDL for the schema, and the driver runs it. The native engine
 * that `prisma db push` downloads cannot be fetched on machines that reach only the npm registry.
 */
export async function renderSchemaDdl(
  schemaPath: string,
  adapterFactory: SqlMigrationAwareDriverAdapterFactory,
): Promise<string> {
  const content = await readFile(schemaPath, 'utf8');
  const { SchemaEngine } = await loadSchemaEngine();
  const engine = await SchemaEngine.new(
    { datamodels: [[schemaPath, content]] },
    () => undefined,
    bindMigrationAwareSqlAdapterFactory(adapterFactory),
  );
  const result = await engine.diff({
    from: { tag: 'empty' },
    to: { tag: 'schemaDatamodel', files: [{ path: schemaPath, content }] },
    script: true,
    exitCode: null,
    filters: { externalTables: [], externalEnums: [] },
  });
  return result.stdout ?? '';
}

type SchemaEngineModule = typeof import('@prisma/schema-engine-wasm');

// Node's WebAssembly global; its types live in lib.dom, which this package does not load.
const wasmRuntime = (globalThis as unknown as { WebAssembly: WasmRuntime }).WebAssembly;

interface WasmRuntime {
  instantiate(bytes: Uint8Array, imports: object): Promise<{ instance: { exports: { __wbindgen_start(): void } } }>;
}

let engineModule: Promise<SchemaEngineModule> | undefined;

/** The package's entry imports its `.wasm` file as a module, which Node cannot do: instantiate by hand. */
function loadSchemaEngine(): Promise<SchemaEngineModule> {
  engineModule ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg');
    const glue = (await import(gluePath)) as SchemaEngineModule & {
      __wbg_set_wasm(exports: unknown): void;
    };
    const bytes = await readFile(gluePath.replace(/\.js$/, '.wasm'));
    const { instance } = await wasmRuntime.instantiate(bytes, { './schema_engine_bg.js': glue });
    glue.__wbg_set_wasm(instance.exports);
    instance.exports.__wbindgen_start();
    return glue;
  })();
  return engineModule;
}
