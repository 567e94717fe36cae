import fc from 'fast-check';

import { mergeVary } from './api-response.js';

const RUNS = { seed: Number(process.env.FUZZ_SEED ?? 20261125), numRuns: Number(process.env.FUZZ_RUNS ?? 1000) };

describe('mergeVary', () => {
  it('keeps the application’s names first and adds the module’s, each once', () => {
    expect(mergeVary('Origin', 'Prefer')).toBe('Origin, Prefer');
    expect(mergeVary('Origin, accept-encoding', 'Accept-Encoding, Prefer')).toBe('Origin, accept-encoding, Prefer');
    expect(mergeVary(['Origin', 'Accept'], 'prefer')).toBe('Origin, Accept, prefer');
    expect(mergeVary(undefined, 'Prefer')).toBe('Prefer');
  });

  it('answers * alone when either value has it', () => {
    expect(mergeVary('*', 'Prefer')).toBe('*');
    expect(mergeVary('Origin', ' * ')).toBe('*');
  });

  it('holds every name of both values, case-insensitively once, in a generated run', () => {
    const name = fc.constantFrom('Origin', 'origin', 'Prefer', 'PREFER', 'Accept', 'Accept-Encoding', 'X-Tenant', '*');
    const list = fc
      .tuple(fc.array(name, { maxLength: 5 }), fc.constantFrom(',', ', ', ' ,'))
      .map(([names, separator]) => names.join(separator));
    fc.assert(
      fc.property(list, list, (application, module) => {
        const merged = mergeVary(application, module).split(', ').filter(Boolean);
        const expected = new Set(
          [application, module].flatMap((value) => value.split(',').map((n) => n.trim().toLowerCase())).filter(Boolean),
        );
        if (expected.has('*')) return merged.length === 1 && merged[0] === '*';
        const lower = merged.map((n) => n.toLowerCase());
        return (
          lower.length === new Set(lower).size && lower.length === expected.size && lower.every((n) => expected.has(n))
        );
      }),
      RUNS,
    );
  });
});
