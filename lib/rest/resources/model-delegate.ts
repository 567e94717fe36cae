import type { ModelMeta } from '../../metadata/model-meta.types.js';
import type { ModelRegistry } from '../../metadata/model-registry.js';
import type { PrismaClientLike } from '../../prisma/prisma-client-like.js';

/** A row as Prisma returns it. */
export type Row = Record<string, unknown>;

// Each caller reads an operation's result as the rows or count that operation answers.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Delegate = Record<string, (args: unknown) => Promise<any>>;

/** The client's delegate of a model (`client.post`): its operations, as far as the client has them. */
export function modelDelegate(registry: ModelRegistry, client: PrismaClientLike, model: ModelMeta): Partial<Delegate> {
  return client[registry.delegateName(model)] as Partial<Delegate>;
}
