import type { RuleContext } from '../rules/rules.types.js';

/**
 * The `history` option: the model that keeps every recorded change (declared by the application,
 * as the idempotency and outbox models are), who made a change, and how long changes are kept.
 * Which models record their changes is said by their rules (`rules[Model].history: true`).
 */
export interface CrudApiHistory {
  /** The Prisma model of the changes (docs/history.md gives its fields). */
  model: string;
  /** The actor recorded with a change, from the caller's policy context. Default: `context.user?.id`. */
  actor?: (context: RuleContext) => string | number | bigint | null | undefined;
  /**
   * How long changes are kept, in milliseconds: older ones are deleted (by each instance, at most
   * once a minute, after a write), and a read `asOf` a time before the limit answers 400. Default:
   * kept for ever.
   */
  retention?: number;
}
