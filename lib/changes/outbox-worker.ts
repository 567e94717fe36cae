import { Logger } from '@nestjs/common';

import type { PrismaClientLike } from '../prisma/prisma-client-like.js';
import type { OutboxSettings, WebhookTarget } from './outbox.types.js';
import type { OutboxEntry } from './outbox-model.js';
import { type AttemptOutcome, OutboxStore } from './outbox-store.js';
import { signWebhook } from './webhook-signature.js';

/** How often a worker deletes the delivered entries past their retention. */
const PURGE_INTERVAL = 60_000;
/** Longest `lastError` kept: enough to tell the failure, bounded for the column. */
const ERROR_LENGTH = 1000;

/**
 * The wait before retry number `attempt` (1 after the first failure): doubling from `base`, capped,
 * with "equal jitter" (half fixed, half random) so that entries failed together spread out.
 */
export function retryDelay(attempt: number, base: number, cap: number, random = Math.random()): number {
  const ceiling = Math.min(cap, base * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** The body of a delivery, as Standard Webhooks shapes events: type, timestamp (the commit's), data. */
export function webhookBody(entry: OutboxEntry): string {
  return JSON.stringify({
    type: `${entry.model}.${entry.operation}`,
    timestamp: entry.createdAt.toISOString(),
    data: entry.payload,
  });
}

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];

/**
 * Delivers the outbox to the webhooks, at least once, in commit order per row: claims a batch of
 * due entries (a lease shared through the database, so the workers of several instances split the
 * work), POSTs each to the webhooks it has not reached yet, signed, then writes the outcome:
 * delivered, retried later with backoff, or dead after the last attempt. While busy it goes on at
 * once; idle, it waits `pollInterval`. `stop` claims nothing more and waits for the batch in hand.
 */
export class OutboxWorker {
  private readonly store: OutboxStore;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = true;
  private lastPurge = 0;

  constructor(
    client: PrismaClientLike,
    private readonly settings: OutboxSettings,
    provider: string,
    private readonly logger = new Logger('CrudApi'),
  ) {
    this.store = new OutboxStore(client, settings.model, provider);
  }

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Claims nothing more; resolves once the batch in hand is delivered or given back to the retries. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.round().finally(() => (this.running = undefined));
    }, delay);
  }

  private async round(): Promise<void> {
    let claimed = 0;
    try {
      claimed = await this.deliverBatch();
      await this.purgeDue();
    } catch (error) {
      this.logger.error(`The outbox worker failed: ${String(error)}`, (error as Error)?.stack);
    }
    this.schedule(claimed > 0 ? 0 : this.settings.pollInterval);
  }

  /** One batch: claims the due entries, delivers them, writes the outcomes; answers how many it claimed. */
  async deliverBatch(): Promise<number> {
    const now = new Date();
    const lease = new Date(now.getTime() + this.settings.lease);
    const entries = await this.store.claim(now, lease, this.settings.batchSize);
    const outcomes = await Promise.all(
      entries.map(async (entry) => {
        const outcome = await this.attempt(entry);
        await this.store.settle(entry, lease, outcome);
        return outcome;
      }),
    );
    const models = entries
      .filter((_entry, index) => outcomes[index]!.status === 'delivered')
      .map((entry) => entry.model);
    if (models.length > 0) this.notify([...new Set(models)]);
    return entries.length;
  }

  private notify(models: string[]): void {
    try {
      this.settings.onDelivered?.(models);
    } catch (error) {
      this.logger.error(`outbox.onDelivered failed: ${String(error)}`, (error as Error)?.stack);
    }
  }

  /** Sends the entry to the webhooks it has not reached yet; what the attempt leaves in the entry. */
  private async attempt(entry: OutboxEntry): Promise<AttemptOutcome> {
    const deliveredTo = new Set(names(entry.deliveredTo));
    const targets = this.settings.webhooks.filter(
      (target) => !deliveredTo.has(target.name) && (!target.models || target.models.includes(entry.model)),
    );
    const body = webhookBody(entry);
    const failures: string[] = [];
    await Promise.all(
      targets.map(async (target) => {
        const failure = await this.post(target, entry, body);
        if (failure) failures.push(`${target.name}: ${failure}`);
        else deliveredTo.add(target.name);
      }),
    );
    const attempts = entry.attempts + 1;
    const done = { attempts, deliveredTo: [...deliveredTo] };
    if (failures.length === 0) return { ...done, status: 'delivered', lastError: null };
    const lastError = failures.join('; ').slice(0, ERROR_LENGTH);
    if (attempts >= this.settings.maxAttempts) {
      this.logger.warn(`Outbox entry ${entry.id} is dead after ${attempts} attempts: ${lastError}`);
      return { ...done, status: 'dead', lastError };
    }
    const { backoffBase, backoffCap } = this.settings;
    const nextAttemptAt = new Date(Date.now() + retryDelay(attempts, backoffBase, backoffCap));
    return { ...done, status: 'pending', lastError, nextAttemptAt };
  }

  /** One signed POST; the failure's description, or undefined for a 2xx answer. */
  private async post(target: WebhookTarget, entry: OutboxEntry, body: string): Promise<string | undefined> {
    try {
      const response = await fetch(target.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...signWebhook(target.secret, String(entry.id), body) },
        body,
        // A redirect is not followed: the signed change goes where the target says, or fails.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeout),
      });
      await response.body?.cancel();
      return response.ok ? undefined : `HTTP ${response.status}`;
    } catch (error) {
      // fetch's own message ("fetch failed") leaves the reason to its cause.
      const { message, cause } = error as Error & { cause?: Error };
      return String(cause?.message ?? message ?? error);
    }
  }

  private async purgeDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPurge < PURGE_INTERVAL) return;
    this.lastPurge = now;
    await this.store.purge(new Date(now - this.settings.retention));
  }
}
