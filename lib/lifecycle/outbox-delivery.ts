import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';

import { LiveQueries } from '../changes/live-queries.js';
import { OutboxWorker } from '../changes/outbox-worker.js';
import { CRUD_API_OPTIONS } from '../options/crud-api.constants.js';
import type { ResolvedCrudApiOptions } from '../options/crud-api-options.interface.js';
import type { PrismaClientLike } from '../prisma/prisma-client-like.js';

/**
 * The instance's outbox worker (the `outbox` option, unless `worker: false`): delivering once the
 * application has started, stopped in the module's first shutdown hook, before the application's
 * own hooks can disconnect Prisma, with its batch in hand delivered or left to the retries.
 */
@Injectable()
export class OutboxDelivery implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly worker?: OutboxWorker;

  constructor(@Inject(CRUD_API_OPTIONS) options: ResolvedCrudApiOptions, @Inject(LiveQueries) live: LiveQueries) {
    const { outbox, prisma, modelMeta } = options;
    if (!outbox?.worker || !prisma) return;
    // Live queries hear of what the worker delivers too: changes a killed process committed reach them.
    const onDelivered = live.settings
      ? (models: string[]) => {
          live.committed(models);
          outbox.onDelivered?.(models);
        }
      : outbox.onDelivered;
    this.worker = new OutboxWorker(prisma as PrismaClientLike, { ...outbox, onDelivered }, modelMeta.provider);
  }

  onApplicationBootstrap(): void {
    this.worker?.start();
  }

  onModuleDestroy(): Promise<void> | undefined {
    return this.worker?.stop();
  }
}
