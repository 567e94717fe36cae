import { Logger } from '@nestjs/common';

import type { ChangeEvent, ChangeListener } from './rules.types.js';

const logger = new Logger('CrudApi');

/**
 * Hands committed changes to the listeners after the answer's work is done: each listener call is
 * scheduled on its own, so a slow or failing listener neither delays nor fails the write that
 * caused it. Failures are logged with the event they were about.
 */
export function deliverChanges(listeners: readonly ChangeListener[], events: readonly ChangeEvent[]): void {
  if (events.length === 0) return;
  setImmediate(() => {
    for (const event of events) {
      for (const listener of listeners) {
        Promise.resolve()
          .then(() => listener(event))
          .catch((error: unknown) =>
            logger.error(
              `A change listener failed on ${event.operation} ${event.model} ${Object.values(event.id).join(',')}: ${String(error)}`,
              (error as Error)?.stack,
            ),
          );
      }
    }
  });
}
