import type { PoliciesFor } from 'nestjs-crud-api';
import type { PrismaService } from './prisma.service';

export interface AppContext {
  user?: { id: number };
}

/** Everyone reads users and published posts; a signed-in user writes their own posts only. */
export const policies: PoliciesFor<PrismaService, AppContext> = {
  User: { read: true, create: true, update: false, delete: false },
  Post: {
    read: ({ user }) => (user ? { OR: [{ published: true }, { authorId: user.id }] } : { published: true }),
    create: ({ user }) => (user ? { authorId: user.id } : false),
    update: ({ user }) => (user ? { authorId: user.id } : false),
    delete: ({ user }) => (user ? { authorId: user.id } : false),
  },
};
