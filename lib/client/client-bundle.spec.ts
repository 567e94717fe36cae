import { build } from 'esbuild';

/** Bundles an entry for browsers as an application's bundler would, and lists the modules it pulled in. */
async function bundledInputs(entry: string, external: string[] = []): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    metafile: true,
    external,
    logLevel: 'silent',
  });
  return Object.keys(result.metafile.inputs);
}

/** Nest, Prisma's runtime, Node built-ins and the module's server layers. */
const SERVER_CODE =
  /@nestjs|@prisma\/client|node:|lib\/(rest|policies|http|filters|transactions)\/|rpc\.(service|controller)/;

describe('client bundles', () => {
  it('bundle the client for browsers without Nest, the Prisma runtime or Node built-ins', async () => {
    const inputs = await bundledInputs('lib/client/index.ts');
    expect(inputs.filter((input) => SERVER_CODE.test(input))).toEqual([]);
    expect(inputs).toEqual(
      expect.arrayContaining(['lib/client/create-rpc-client.ts', 'lib/rpc/prisma-superjson-types.ts']),
    );
  });

  it('bundle the React bindings with TanStack Query and React as the application’s own', async () => {
    const inputs = await bundledInputs('lib/client/react/index.ts', ['react', '@tanstack/react-query']);
    expect(inputs.filter((input) => SERVER_CODE.test(input))).toEqual([]);
    expect(inputs).toContain('lib/client/react/rpc-hooks.ts');
  });

  it('notices server code in a bundle (the check can fail)', async () => {
    // The server's superjson module imports Prisma's runtime (for Decimal), which no browser build resolves.
    await expect(bundledInputs('lib/rpc/rpc-superjson.ts')).rejects.toThrow(/Could not resolve "node:/);
    expect(SERVER_CODE.test('node_modules/@prisma/client/runtime/client.js')).toBe(true);
    expect(SERVER_CODE.test('lib/rpc/rpc.service.ts')).toBe(true);
  });
});
