/**
 * The part of a Prisma client the APIs use: model delegates by name, interactive transactions and
 * batch transactions. Kept structural so any generated (or extended) client fits.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- each generated client types its delegates and
   transaction client its own way: `any` is what lets every one of them fit. */
export interface PrismaClientLike {
  $transaction<T>(fn: (tx: any) => Promise<T>, options?: unknown): Promise<T>;
  $transaction<T>(queries: readonly Promise<T>[], options?: unknown): Promise<T[]>;
  [delegate: string]: any;
}
/* eslint-enable @typescript-eslint/no-explicit-any */
