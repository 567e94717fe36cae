/** One kind of request in the soak mix, on one interface. */
export interface SoakOperation {
  name: string;
  weight: number;
  /** `read` needs nothing; `create` adds an id to the client's own posts; the others use one. */
  kind: 'read' | 'create' | 'update' | 'delete';
  request(input: OperationInput): { method: string; path: string; body?: string; contentType?: string };
  status: number | readonly number[];
  /** The id of the post a create made, from its answer. */
  createdId?(body: string): number;
}

export interface OperationInput {
  /** A post of the seeded data (reads). */
  seededPost: number;
  /** One of the client's own posts (update, delete). */
  ownPost: number;
  /** The title a create or update writes: unique per request. */
  title: string;
  /** A seeded user, as author. */
  user: number;
}

const JSON_API = 'application/vnd.api+json';
const q = (args: unknown) => encodeURIComponent(JSON.stringify(args));

/** Reads, creates, updates and deletes of posts on both interfaces; creates outweigh deletes. */
export const SOAK_OPERATIONS: readonly SoakOperation[] = [
  {
    name: 'rest-fetch',
    weight: 12,
    kind: 'read',
    status: 200,
    request: ({ seededPost }) => ({ method: 'GET', path: `/api/rest/post/${seededPost}` }),
  },
  {
    name: 'rest-list',
    weight: 12,
    kind: 'read',
    status: 200,
    request: () => ({ method: 'GET', path: '/api/rest/post?include=author&page%5Blimit%5D=20' }),
  },
  {
    name: 'rpc-find-unique',
    weight: 12,
    kind: 'read',
    status: 200,
    request: ({ seededPost }) => ({
      method: 'GET',
      path: `/api/rpc/post/findUnique?q=${q({ where: { id: seededPost } })}`,
    }),
  },
  {
    name: 'rpc-find-many',
    weight: 12,
    kind: 'read',
    status: 200,
    request: ({ user }) => ({
      method: 'GET',
      path: `/api/rpc/post/findMany?q=${q({ where: { authorId: user }, include: { author: true, tags: true }, take: 10 })}`,
    }),
  },
  {
    name: 'rest-create',
    weight: 10,
    kind: 'create',
    status: 201,
    request: ({ title, user }) => ({
      method: 'POST',
      path: '/api/rest/post',
      contentType: JSON_API,
      body: JSON.stringify({
        data: {
          type: 'post',
          attributes: { title, rating: 1.5 },
          relationships: { author: { data: { type: 'user', id: String(user) } } },
        },
      }),
    }),
    createdId: (body) => Number((JSON.parse(body) as { data: { id: string } }).data.id),
  },
  {
    name: 'rpc-create',
    weight: 10,
    kind: 'create',
    status: 201,
    request: ({ title, user }) => ({
      method: 'POST',
      path: '/api/rpc/post/create',
      body: JSON.stringify({ data: { title, rating: 2.5, authorId: user } }),
    }),
    createdId: (body) => (JSON.parse(body) as { data: { id: number } }).data.id,
  },
  {
    name: 'rest-update',
    weight: 10,
    kind: 'update',
    status: 200,
    request: ({ ownPost, title }) => ({
      method: 'PATCH',
      path: `/api/rest/post/${ownPost}`,
      contentType: JSON_API,
      body: JSON.stringify({ data: { type: 'post', id: String(ownPost), attributes: { title } } }),
    }),
  },
  {
    name: 'rpc-update',
    weight: 10,
    kind: 'update',
    status: 200,
    request: ({ ownPost, title }) => ({
      method: 'PATCH',
      path: '/api/rpc/post/update',
      body: JSON.stringify({ where: { id: ownPost }, data: { title } }),
    }),
  },
  {
    name: 'rest-delete',
    weight: 6,
    kind: 'delete',
    status: [200, 204],
    request: ({ ownPost }) => ({ method: 'DELETE', path: `/api/rest/post/${ownPost}` }),
  },
  {
    name: 'rpc-delete',
    weight: 6,
    kind: 'delete',
    status: 200,
    request: ({ ownPost }) => ({ method: 'DELETE', path: `/api/rpc/post/delete?q=${q({ where: { id: ownPost } })}` }),
  },
];

/** The operation whose cumulative weight covers `roll` (0 ≤ roll < 1). */
export function pickOperation(roll: number, operations: readonly SoakOperation[] = SOAK_OPERATIONS): SoakOperation {
  const total = operations.reduce((sum, operation) => sum + operation.weight, 0);
  let threshold = roll * total;
  for (const operation of operations) {
    threshold -= operation.weight;
    if (threshold < 0) return operation;
  }
  return operations.at(-1)!;
}

export function isExpectedStatus(operation: SoakOperation, status: number): boolean {
  return typeof operation.status === 'number' ? status === operation.status : operation.status.includes(status);
}
