const UNITS: Readonly<Record<string, number>> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** The `bodyLimit` option in bytes (`'1mb'` is 1048576, as body-parser reads it). */
export function bodyLimitBytes(limit: number | string): number {
  if (typeof limit === 'number') return Math.floor(limit);
  const [, amount = '', unit = 'b'] = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(limit.trim()) ?? [];
  return Math.floor(Number(amount) * UNITS[unit.toLowerCase()]!);
}
