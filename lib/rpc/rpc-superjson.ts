import { Decimal } from '@prisma/client/runtime/client';
import { SuperJSON } from 'superjson';

import { registerPrismaTypes } from './prisma-superjson-types.js';

export { isDecimalLike, registerPrismaTypes, type DecimalConstructor } from './prisma-superjson-types.js';

/** The server's own superjson instance; the global one stays untouched for the application. */
export const rpcSuperJSON = registerPrismaTypes(new SuperJSON(), Decimal);
