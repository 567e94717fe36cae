import type { TestDatabase } from './test-database.js';

/** Every row of every table, in id order, as comparable JSON (BigInt, Decimal and Bytes as text). */
export async function snapshotDatabase(db: TestDatabase): Promise<string> {
  const prisma = db.prisma as unknown as Record<string, { findMany(args: unknown): Promise<unknown[]> }>;
  const tables: Record<string, unknown[]> = {};
  for (const model of Object.values(db.modelMeta.models)) {
    const delegate = model.name.charAt(0).toLowerCase() + model.name.slice(1);
    tables[model.name] = await prisma[delegate]!.findMany({
      orderBy: model.idFields.map((name) => ({ [name]: 'asc' })),
    });
  }
  return JSON.stringify(tables, (_key, value) => (typeof value === 'bigint' ? `${value}n` : value));
}
