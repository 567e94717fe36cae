import { CrudApiError } from '../../errors/crud-api.error.js';
import type { ModelMeta } from '../../metadata/model-meta.types.js';
import { toTypeName } from '../../metadata/model-registry.js';
import { type OwnedField, ownedModelProblems } from '../../metadata/owned-model-problems.js';
import { databaseErrorOf } from '../../prisma/database-error.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';

/** The fields of the model that keeps the answers, by type (docs/http.md); `id` is its `@id`. */
export const IDEMPOTENCY_FIELDS: Readonly<Record<string, OwnedField>> = {
  id: { type: 'String' },
  fingerprint: { type: 'String' },
  status: { type: 'Int' },
  headers: { type: 'Json' },
  body: { type: 'Bytes', optional: true },
  expiresAt: { type: 'DateTime' },
};

/** What is wrong with the model named by `idempotency.model`, one message per problem. */
export function idempotencyModelProblems(model: ModelMeta | undefined, name: string): string[] {
  return ownedModelProblems('idempotency.model', model, name, IDEMPOTENCY_FIELDS);
}

/** An answer as it was sent: status, headers and the body's bytes. */
export interface RecordedAnswer {
  status: number;
  headers?: Record<string, string>;
  payload?: Buffer;
}

/** A stored key: the request it was sent with (`fingerprint`) and the answer that request got. */
export interface IdempotencyRecord {
  id: string;
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | null;
  expiresAt: Date;
}

type Delegate = Record<'findUnique' | 'create' | 'update' | 'deleteMany', (args: object) => Promise<unknown>>;

/** The answer to a request whose key is held by a request that is still running. */
export function keyInUse(): CrudApiError {
  return new CrudApiError(
    'idempotency-key-in-use',
    'A request with this Idempotency-Key is still being processed: retry once it has been answered.',
  );
}

/** Thrown inside the claiming transaction when another request has committed the key. */
export class KeyTaken extends Error {}

/** MariaDB's lock wait timeout: another transaction holds the key's row. */
const LOCK_WAIT_TIMEOUT = '1205';

/**
 * The stored keys, read and written through the model's delegate. Each claim is made inside the
 * transaction of its request's write, so key, write and answer commit together or not at all.
 */
export class IdempotencyRecords {
  private readonly delegateName: string;

  constructor(
    model: ModelMeta,
    private readonly provider: string,
  ) {
    this.delegateName = toTypeName(model.name);
  }

  private delegate(client: PrismaClientLike): Delegate {
    return client[this.delegateName] as Delegate;
  }

  find(client: PrismaClientLike, id: string): Promise<IdempotencyRecord | null> {
    return this.delegate(client).findUnique({ where: { id } }) as Promise<IdempotencyRecord | null>;
  }

  /**
   * Takes the key for the transaction `tx`, or throws: `keyInUse` while another transaction holds
   * it, `KeyTaken` once another has committed it. Waits on a holder are bounded (PostgreSQL asks
   * for an advisory lock without waiting, MariaDB waits at most a second for the row); SQLite runs
   * one writer at a time, so a second writer meets the committed row. `expiredBy`: the key's row
   * was found past its retention, and is replaced if it still is at that time.
   */
  async claim(tx: PrismaClientLike, id: string, fingerprint: string, expiresAt: Date, expiredBy?: Date): Promise<void> {
    if (this.provider === 'postgresql') {
      const [row] = (await tx.$queryRawUnsafe(
        'SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked',
        id,
      )) as Array<{ locked: boolean }>;
      if (!row?.locked) throw keyInUse();
    }
    const records = this.delegate(tx);
    const take = async () => {
      if (expiredBy) await records.deleteMany({ where: { id, expiresAt: { lte: expiredBy } } });
      await records.create({ data: { id, fingerprint, status: 0, headers: {}, expiresAt } });
    };
    try {
      await (this.provider === 'mysql' ? this.boundedWait(tx, take) : take());
    } catch (error) {
      if ((error as { code?: unknown }).code === 'P2002') throw new KeyTaken();
      throw error;
    }
  }

  /** Runs `take` with InnoDB's lock waits bounded to a second, the session's own bound restored after. */
  private async boundedWait(tx: PrismaClientLike, take: () => Promise<void>): Promise<void> {
    await tx.$executeRawUnsafe('SET @crud_api_lock_wait = @@innodb_lock_wait_timeout, innodb_lock_wait_timeout = 1');
    try {
      await take();
    } catch (error) {
      const code = databaseErrorOf((error as { meta?: Record<string, unknown> }).meta)?.code;
      throw code === LOCK_WAIT_TIMEOUT ? keyInUse() : error;
    } finally {
      await tx.$executeRawUnsafe('SET innodb_lock_wait_timeout = @crud_api_lock_wait');
    }
  }

  /** Stores the answer of the claimed key, in the claiming transaction. */
  async complete(tx: PrismaClientLike, id: string, { status, headers, payload }: RecordedAnswer): Promise<void> {
    await this.delegate(tx).update({ where: { id }, data: { status, headers: headers ?? {}, body: payload ?? null } });
  }

  /** Deletes the keys past their retention. */
  async purge(client: PrismaClientLike, now: Date): Promise<void> {
    await this.delegate(client).deleteMany({ where: { expiresAt: { lte: now } } });
  }
}
