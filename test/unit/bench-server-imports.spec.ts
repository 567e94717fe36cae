import { readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from '@jest/globals';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The files and packages a module loads before running: its static, non-type imports, followed through relative ones. */
function staticImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    for (const [, specifier] of source.matchAll(/^import (?!type )(?:[^'"]*? from )?'([^']+)';$/gms)) {
      if (specifier!.startsWith('.')) visit(path.join(path.dirname(file), specifier!).replace(/\.js$/, '.ts'));
      else seen.add(specifier!);
    }
  };
  visit(entry);
  return seen;
}

describe('bench server', () => {
  it('loads none of the module before it knows it serves it: the careful baseline carries only its own code', () => {
    const loaded = [...staticImports('bench/server/bench-server.ts')];
    // Besides the fixture's SQLite busy wait, the consistency token's header name and format (a
    // constant and two pure functions), which the replicas scenarios send.
    expect(loaded.filter((file) => file.startsWith('lib/')).sort()).toEqual([
      'lib/prisma/async-busy-timeout.ts',
      'lib/shared/consistency-token.ts',
    ]);
    expect(loaded).not.toContain('class-validator');
    expect(loaded).toContain('fixtures/blog/database/create-prisma-client.ts');
  });
});
