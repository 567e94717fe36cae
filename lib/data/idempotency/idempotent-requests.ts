import { Inject, Injectable } from '@nestjs/common';

import { CrudApiError } from '../../errors/crud-api.error.js';
import { CRUD_API_OPTIONS } from '../../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../../options/crud-api-options.interface.js';
import type { ApiRequest } from '../../shared/api-request.js';
import { PrismaClientResolver } from '../prisma-client.resolver.js';
import { transactionOptions } from '../run-in-transaction.js';
import { idempotencyKeyOf, idempotencyRecordId, requestFingerprint } from './idempotency-key.js';
import {
  type IdempotencyRecord,
  IdempotencyRecords,
  keyInUse,
  KeyTaken,
  type RecordedAnswer,
} from './idempotency-records.js';

/** Methods that change nothing: a key sent with them is ignored (RFC 9110 §9.2.1). */
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** How often an instance deletes the keys past their retention. */
const PURGE_INTERVAL_MS = 60_000;

/** The header a replayed answer carries, so that a client can tell it from a first one. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * Idempotent writes (the `idempotency` option, draft-ietf-httpapi-idempotency-key-header): the
 * first request with a key runs in one transaction that claims the key, writes, and stores the
 * answer; a retry with the same key and request gets that answer and writes nothing; the key with
 * another request answers 422, and while its first request is still running, 409.
 */
@Injectable()
export class IdempotentRequests {
  private readonly records?: IdempotencyRecords;
  /** The keys this instance is answering: a retry of one answers 409 without asking the database. */
  private readonly running = new Set<string>();
  private nextPurge = 0;

  constructor(
    @Inject(CRUD_API_OPTIONS) private readonly options: ResolvedCrudApiOptions,
    @Inject(PrismaClientResolver) private readonly clients: PrismaClientResolver,
  ) {
    const { idempotency, modelMeta } = options;
    if (idempotency) this.records = new IdempotencyRecords(idempotency.model, modelMeta.provider);
  }

  /** The request's key, when the option is on and the request is a write that sent one. */
  keyOf(request: ApiRequest): string | undefined {
    if (!this.records || SAFE_METHODS.has(request.method)) return undefined;
    return idempotencyKeyOf(request.headers['idempotency-key']);
  }

  /** Answers a request sent with `key`: the stored answer of its first run, or `answer()` run once and stored. */
  async run(request: ApiRequest, key: string, answer: () => Promise<RecordedAnswer>): Promise<RecordedAnswer> {
    const records = this.records!;
    const { retention, scope } = this.options.idempotency!;
    const id = idempotencyRecordId(String(await scope(request.raw)), key);
    const fingerprint = requestFingerprint(request);
    if (this.running.has(id)) throw keyInUse();
    this.running.add(id);
    try {
      const client = await this.clients.forRequest(request);
      const now = new Date();
      await this.purgeDue(client, now);
      const stored = await records.find(client, id);
      if (stored && stored.expiresAt > now) return replayed(stored, fingerprint);
      try {
        return await this.clients.inRequestTransaction(request, this.transactionOptions(request), async (tx) => {
          // A key kept past its retention is free again: its row is replaced.
          await records.claim(tx, id, fingerprint, new Date(now.getTime() + retention), stored ? now : undefined);
          const first = await answer();
          await records.complete(tx, id, first);
          return first;
        });
      } catch (error) {
        if (!(error instanceof KeyTaken)) throw error;
        // Another instance committed the key between the lookup and the claim.
        const taken = await records.find(client, id);
        if (!taken) throw keyInUse();
        return replayed(taken, fingerprint);
      }
    } finally {
      this.running.delete(id);
    }
  }

  /**
   * The module's transaction bounds; `If-Match` needs its read and write in one Serializable
   * transaction, which this one then is.
   */
  private transactionOptions(request: ApiRequest): object {
    const options = transactionOptions(this.options.transactions);
    return request.headers['if-match'] === undefined ? options : { ...options, isolationLevel: 'Serializable' };
  }

  private async purgeDue(client: Parameters<IdempotencyRecords['purge']>[0], now: Date): Promise<void> {
    if (now.getTime() < this.nextPurge) return;
    this.nextPurge = now.getTime() + PURGE_INTERVAL_MS;
    await this.records!.purge(client, now);
  }
}

/** The stored answer, if the retry is the request that stored it. */
function replayed(record: IdempotencyRecord, fingerprint: string): RecordedAnswer {
  if (record.fingerprint !== fingerprint) {
    throw new CrudApiError(
      'idempotency-key-reused',
      'This Idempotency-Key was sent with another request (method, target or body): use a new key for a new request.',
    );
  }
  return {
    status: record.status,
    headers: { ...record.headers, [REPLAYED_HEADER]: 'true' },
    payload: record.body === null ? undefined : Buffer.from(record.body),
  };
}
