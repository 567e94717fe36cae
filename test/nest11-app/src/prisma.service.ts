import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaClient } from './generated/prisma/client';

/** The application's Prisma client over the SQLite file in DATABASE_URL (`file:…`). */
@Injectable()
export class PrismaService extends PrismaClient implements OnModuleDestroy {
  constructor() {
    super({ adapter: new PrismaBetterSqlite3({ url: process.env.DATABASE_URL ?? 'file:./dev.db' }) });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
