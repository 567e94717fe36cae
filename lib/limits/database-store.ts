import type { ModelMeta } from '../metadata/model-meta.types.js';
import { toTypeName } from '../metadata/model-registry.js';
import { ownedModelProblems } from '../metadata/owned-model-problems.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import { type BucketLimit, bucketTimes, type Taken, takeUnits } from './gcra.js';
import { type RateLimitStore, RateLimitStoreError } from './rate-limit-store.js';

/** Claims of a take that found its row changed under it, or made by another caller, before it gives up. */
const ATTEMPTS = 4;

/** What is wrong with the model named by `rateLimits.store.model`, one message per problem. */
export function rateLimitModelProblems(model: ModelMeta | undefined, name: string): string[] {
  return ownedModelProblems('rateLimits.store.model', model, name, { id: { type: 'String' }, tat: { type: 'BigInt' } });
}

interface BucketDelegate {
  updateMany(args: object): Promise<{ count: number }>;
  findUnique(args: object): Promise<{ tat: bigint } | null>;
  create(args: object): Promise<unknown>;
  deleteMany(args: object): Promise<{ count: number }>;
}

/**
 * The buckets as rows of a model the application declares (`id String @id`, `tat BigInt`, ms; the
 * module creates no table), shared by every instance on the same database. takeUnits (gcra.ts) in
 * conditional single-statement updates, without locks or transactions: the database applies each
 * to the row's current tat, so concurrent takes cannot pass more than the bucket holds.
 */
export class DatabaseRateLimitStore implements RateLimitStore {
  private readonly buckets: BucketDelegate;
  private readonly clock: () => number;

  constructor(client: PrismaClientLike, model: ModelMeta, options: { clock?: () => number } = {}) {
    this.buckets = client[toTypeName(model.name)] as BucketDelegate;
    this.clock = options.clock ?? Date.now;
  }

  async take(key: string, cost: number, limit: BucketLimit): Promise<Taken> {
    try {
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        const taken = await this.attempt(key, cost, limit);
        if (taken) return taken;
      }
    } catch (error) {
      throw new RateLimitStoreError(`The rate limit's database failed: ${(error as Error).message}`, { cause: error });
    }
    throw new RateLimitStoreError(`Rate limit bucket "${key}" changed under ${ATTEMPTS} attempts`);
  }

  /**
   * Deletes the buckets full by `now` (the same as no row). Called by the module at most once a
   * minute; answers how many it deleted.
   */
  async purgeIdle(now = this.clock()): Promise<number> {
    const { count } = await this.buckets.deleteMany({ where: { tat: { lt: BigInt(Math.floor(now)) } } });
    return count;
  }

  /**
   * One claim of `cost` units; none when the row changed between its statements or its clock
   * reading was older than a take it found counted.
   */
  private async attempt(id: string, cost: number, limit: BucketLimit): Promise<Taken | undefined> {
    const now = this.now();
    const read = async () => (await this.buckets.findUnique({ where: { id }, select: { tat: true } }))?.tat;
    // Nothing to write: a take of 0 always passes, one larger than the bucket never does.
    if (cost === 0 || cost > limit.units) return takeUnits(numberOf(await read()), now, cost, limit);
    const { intervalMs, fullMs } = bucketTimes(limit);
    const step = cost * intervalMs;
    // A full bucket (tat past): the take starts from now.
    const fromFull = { where: { id, tat: { lt: BigInt(now) } }, data: { tat: BigInt(now + step) } };
    if ((await this.buckets.updateMany(fromFull)).count === 1) return takeUnits(now, now, cost, limit);
    // A bucket with room for `cost` units.
    const within = { id, tat: { gte: BigInt(now), lte: BigInt(now + fullMs - step) } };
    if ((await this.buckets.updateMany({ where: within, data: { tat: { increment: BigInt(step) } } })).count === 1) {
      // Read after the update, the tat counts this take and perhaps later ones: `remaining` errs low.
      return takeUnits(Math.max(numberOf(await read()) ?? 0, now + step), now, 0, limit);
    }
    const tat = await read();
    if (tat === undefined) return this.create(id, now, cost, limit);
    // Judged at a time read after the row: a concurrent take that read the clock after this one
    // but wrote first must not make this one look early. Room found then: claim it again.
    const taken = takeUnits(Number(tat), this.now(), cost, limit);
    return taken.allowed ? undefined : taken;
  }

  private now(): number {
    return Math.floor(this.clock());
  }

  /** A first take on a new bucket; none when another caller created it first. */
  private async create(id: string, now: number, cost: number, limit: BucketLimit): Promise<Taken | undefined> {
    const taken = takeUnits(undefined, now, cost, limit);
    try {
      await this.buckets.create({ data: { id, tat: BigInt(taken.tat!) } });
      return taken;
    } catch (error) {
      if ((error as { code?: unknown }).code === 'P2002') return undefined;
      throw error;
    }
  }
}

const numberOf = (tat: bigint | undefined): number | undefined => (tat === undefined ? undefined : Number(tat));
