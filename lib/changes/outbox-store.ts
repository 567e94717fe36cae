import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { OutboxEntry, OutboxStatus } from './outbox-model.js';

/** Databases where claiming workers pass over the rows another one is claiming instead of waiting. */
const SKIP_LOCKED_PROVIDERS: ReadonlySet<string> = new Set(['postgresql', 'mysql']);

/** What an attempt leaves in an entry. */
export interface AttemptOutcome {
  status: OutboxStatus;
  attempts: number;
  deliveredTo: string[];
  lastError: string | null;
  nextAttemptAt?: Date;
}

interface LockedRow {
  id: unknown;
  status: string;
  nextAttemptAt: unknown;
  lockedUntil: unknown;
}

/**
 * The outbox rows as the delivery workers share them. A worker claims a batch with a lease: in a
 * short transaction it locks the entries it found due (PostgreSQL and MariaDB skip those another
 * worker is locking: `FOR UPDATE SKIP LOCKED`; SQLite has one writer), keeps those still free and
 * sets their `lockedUntil`; the webhooks are called after that transaction, and each entry's
 * outcome is written only while the lease is still the worker's.
 */
export class OutboxStore {
  private readonly delegateName: string;
  private readonly headsSql: string;
  private readonly lockSql: (count: number) => string;

  constructor(
    private readonly client: PrismaClientLike,
    model: ModelMeta,
    private readonly provider: string,
  ) {
    this.delegateName = toTypeName(model.name);
    const q = (name: string) => (provider === 'mysql' ? `\`${name}\`` : `"${name}"`);
    const table = q(model.dbName ?? model.name);
    // Only the first pending entry of each row is due: the next waits for it, retries included.
    this.headsSql = this.placeholders(
      `SELECT e.${q('id')} AS id FROM ${table} e WHERE e.${q('status')} = 'pending' AND e.${q('nextAttemptAt')} <= ? ` +
        `AND (e.${q('lockedUntil')} IS NULL OR e.${q('lockedUntil')} <= ?) AND NOT EXISTS (SELECT 1 FROM ${table} p ` +
        `WHERE p.${q('model')} = e.${q('model')} AND p.${q('rowKey')} = e.${q('rowKey')} AND p.${q('status')} = 'pending' ` +
        `AND p.${q('id')} < e.${q('id')}) ORDER BY e.${q('id')} LIMIT ?`,
    );
    const skip = SKIP_LOCKED_PROVIDERS.has(provider) ? ' FOR UPDATE SKIP LOCKED' : '';
    this.lockSql = (count) =>
      this.placeholders(
        `SELECT ${q('id')} AS id, ${q('status')} AS status, ${q('nextAttemptAt')} AS ${q('nextAttemptAt')}, ` +
          `${q('lockedUntil')} AS ${q('lockedUntil')} FROM ${table} WHERE ${q('id')} IN (${Array(count).fill('?').join(', ')})${skip}`,
      );
  }

  /** PostgreSQL numbers its parameters. */
  private placeholders(sql: string): string {
    if (this.provider !== 'postgresql') return sql;
    let index = 0;
    return sql.replaceAll('?', () => `$${++index}`);
  }

  private delegate(client: PrismaClientLike) {
    return client[this.delegateName];
  }

  /** Claims at most `limit` due entries until `lease`, oldest first, each the first pending one of its row. */
  async claim(now: Date, lease: Date, limit: number): Promise<OutboxEntry[]> {
    // Read outside the claiming transaction: MariaDB's snapshot would otherwise predate the locks.
    const heads = (await this.client.$queryRawUnsafe(this.headsSql, now, now, limit)) as { id: unknown }[];
    if (heads.length === 0) return [];
    const ids = await this.client.$transaction(async (tx: PrismaClientLike) => {
      const rows = (await tx.$queryRawUnsafe(
        this.lockSql(heads.length),
        ...heads.map((row) => Number(row.id)),
      )) as LockedRow[];
      // A locking read sees the latest commit: an entry another worker claimed or settled meanwhile is no longer free.
      const free = rows.filter((row) => isFree(row, now)).map((row) => Number(row.id));
      if (free.length > 0)
        await this.delegate(tx).updateMany({ where: { id: { in: free } }, data: { lockedUntil: lease } });
      return free;
    });
    if (ids.length === 0) return [];
    return this.delegate(this.client).findMany({ where: { id: { in: ids } }, orderBy: { id: 'asc' } });
  }

  /** Writes an attempt's outcome, unless the lease ran out and another worker took the entry. */
  async settle(entry: OutboxEntry, lease: Date, outcome: AttemptOutcome): Promise<void> {
    await this.delegate(this.client).updateMany({
      where: { id: entry.id, lockedUntil: lease },
      data: { ...outcome, lockedUntil: null },
    });
  }

  /** Deletes the delivered entries committed before `before`. */
  async purge(before: Date): Promise<void> {
    await this.delegate(this.client).deleteMany({ where: { status: 'delivered', createdAt: { lt: before } } });
  }
}

const time = (value: unknown): number => new Date(value as string | number | Date).getTime();

function isFree(row: LockedRow, now: Date): boolean {
  return (
    row.status === 'pending' &&
    time(row.nextAttemptAt) <= now.getTime() &&
    (row.lockedUntil === null || time(row.lockedUntil) <= now.getTime())
  );
}
