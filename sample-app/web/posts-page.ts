/// <reference lib="dom" />
// The sample app's page (served at /): the typed RPC client and its TanStack Query hooks in a browser.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createElement as h, type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import { createRpcClient } from '../../lib/client/index.js';
import { createRpcHooks } from '../../lib/client/react/index.js';

// Demo authentication (see demo-auth.ts): the page acts as the seeded user 1.
const DEMO_USER_ID = '1';

const client = createRpcClient<PrismaClient>({
  baseUrl: `${location.origin}/api/rpc`,
  headers: { 'x-user-id': DEMO_USER_ID },
});
const { useRpcQuery, useRpcMutation } = createRpcHooks({ modelMeta });

function Posts() {
  const [title, setTitle] = useState('');
  const posts = useRpcQuery(
    client.post.findMany({ include: { author: { select: { name: true } } }, orderBy: { id: 'desc' }, take: 10 }),
  );
  const create = useRpcMutation((newTitle: string) =>
    client.post.create({ data: { title: newTitle, author: { connect: { id: Number(DEMO_USER_ID) } } } }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(title, { onSuccess: () => setTitle('') });
  };
  return h(
    'main',
    null,
    h('h1', null, 'Posts'),
    h(
      'form',
      { onSubmit: submit },
      h('input', { name: 'title', value: title, onChange: (e) => setTitle(e.currentTarget.value) }),
      h('button', { type: 'submit' }, 'Add'),
    ),
    create.error && h('p', { role: 'alert' }, `${create.error.status}: ${create.error.message}`),
    posts.isPending
      ? h('p', null, 'Loading…')
      : h(
          'ul',
          { id: 'posts' },
          posts.data?.map((post) => h('li', { key: post.id }, `${post.title} — ${post.author.name}`)),
        ),
  );
}

createRoot(document.getElementById('root')!).render(h(QueryClientProvider, { client: new QueryClient() }, h(Posts)));
