/**
 * The part of a Prisma client the APIs use: model delegates by name, interactive transactions and
 * batch transactions. Kept structural so any generated (or extended) client fits.
 */
export interface PrismaClientLike {
  $transaction<T>(fn: (tx: any) => Promise<T>, options?: unknown): Promise<T>;
  $transaction<T>(queries: readonly Promise<T>[], options?: unknown): Promise<T[]>;
  [delegate: string]: any;
}
