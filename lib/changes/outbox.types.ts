import type { ModelMeta } from '../metadata/model-meta.types.js';

/** A receiver of the outbox's deliveries: one signed POST per committed change (docs/live.md). */
export interface WebhookTarget {
  /** Names the target in the outbox rows (`deliveredTo`) and in logs: unique, and kept across deploys. */
  name: string;
  /** Where the changes are POSTed (http or https). */
  url: string;
  /**
   * The key of the Standard Webhooks signature: `whsec_` followed by base64 (the key's bytes), as
   * Standard Webhooks libraries take it, or any other text (its UTF-8 bytes).
   */
  secret: string;
  /**
   * Only changes of these Prisma models.
   * @defaultValue every model
   */
  models?: string[];
}

/**
 * Durable delivery of committed changes (docs/live.md): each change is written to an outbox model
 * in the transaction of the write, and a worker on each instance POSTs it to the webhooks, at
 * least once, in commit order per row.
 */
export interface CrudApiOutbox {
  /**
   * The Prisma model the changes wait in, with the fields docs/live.md lists. It is the module's
   * own: neither interface exposes it, and policies and rules cannot name it.
   */
  model: string;
  /**
   * Where the changes go. Without webhooks the rows are written and marked delivered.
   * @defaultValue none
   */
  webhooks?: WebhookTarget[];
  /**
   * Whether this instance runs a delivery worker (instances share the work).
   * @defaultValue true
   */
  worker?: boolean;
  /**
   * How often an idle worker looks for due changes, in milliseconds.
   * @defaultValue 1000
   */
  pollInterval?: number;
  /**
   * Most changes a worker claims at once.
   * @defaultValue 50
   */
  batchSize?: number;
  /**
   * Attempts before a change is given up (status `dead`).
   * @defaultValue 10
   */
  maxAttempts?: number;
  /**
   * Wait before the first retry, in milliseconds; it doubles with each attempt, with jitter.
   * @defaultValue 1000
   */
  backoffBase?: number;
  /**
   * Longest wait between two attempts, in milliseconds.
   * @defaultValue 300000 (5 minutes)
   */
  backoffCap?: number;
  /**
   * How long a claimed change is the claiming worker's, in milliseconds: a worker that dies holding
   * it leaves it to another after this. Longer than a batch's requests take.
   * @defaultValue 60000
   */
  lease?: number;
  /**
   * Longest wait for one webhook's answer, in milliseconds.
   * @defaultValue 10000
   */
  timeout?: number;
  /**
   * How long delivered changes are kept, counted from their commit, in milliseconds.
   * @defaultValue 604800000 (7 days)
   */
  retention?: number;
  /** Called with the models of each batch of changes delivered (every webhook answered 2xx). */
  onDelivered?: (models: string[]) => void;
}

/** The outbox settings a worker and a writer run with: every default applied, the model the schema's. */
export type OutboxSettings = Required<Omit<CrudApiOutbox, 'model' | 'onDelivered'>> &
  Pick<CrudApiOutbox, 'onDelivered'> & { model: ModelMeta };

/** The defaults of the `outbox` option's settings. */
export const OUTBOX_DEFAULTS = {
  webhooks: [],
  worker: true,
  pollInterval: 1000,
  batchSize: 50,
  maxAttempts: 10,
  backoffBase: 1000,
  backoffCap: 300_000,
  lease: 60_000,
  timeout: 10_000,
  retention: 604_800_000,
} as const satisfies Omit<OutboxSettings, 'model' | 'onDelivered' | 'webhooks'> & { webhooks: readonly [] };
