/// <reference lib="dom" />
// The page of test/browser/live-queries.spec.ts: one list of posts followed live over RPC
// (`useRpcQuery(..., { live: true })`, twice), one over REST (`useLiveRestQuery`), and a form that writes.
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createElement as h, type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import { createRpcClient } from '../../lib/client/index.js';
import { createRpcHooks, useLiveRestQuery } from '../../lib/client/react/index.js';

const client = createRpcClient<PrismaClient>({ baseUrl: `${location.origin}/api/rpc` });
const { useRpcQuery, useRpcMutation } = createRpcHooks({ modelMeta });

const list = (id: string, titles: string[] | undefined) =>
  h(
    'ul',
    { id },
    titles?.map((title) => h('li', { key: title }, title)),
  );

/** Shown twice: both lists share one stream. */
function RpcPosts({ id }: { id: string }) {
  const posts = useRpcQuery(client.post.findMany({ select: { title: true }, orderBy: { id: 'asc' } }), { live: true });
  return list(
    id,
    posts.data?.map((post) => post.title),
  );
}

interface PostsDocument {
  data: { attributes: { title: string } }[];
}

function RestPosts() {
  const url = `${location.origin}/api/rest/post?sort=id&fields[post]=title`;
  const queryKey = ['rest', 'post', url];
  const posts = useQuery({
    queryKey,
    queryFn: async () => (await fetch(url)).json() as Promise<PostsDocument>,
    staleTime: Infinity,
  });
  useLiveRestQuery({ queryKey, url });
  return list(
    'rest-posts',
    posts.data?.data.map((post) => post.attributes.title),
  );
}

function NewPost() {
  const [title, setTitle] = useState('');
  const create = useRpcMutation((newTitle: string) =>
    client.post.create({ data: { title: newTitle, author: { connect: { id: 1 } } } }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(title, { onSuccess: () => setTitle('') });
  };
  return h(
    'form',
    { onSubmit: submit },
    h('input', { name: 'title', value: title, onChange: (e) => setTitle(e.currentTarget.value) }),
    h('button', { type: 'submit' }, 'Add'),
  );
}

/** The lists, which a checkbox unmounts: their streams close with the last of them. */
function Lists() {
  const [shown, setShown] = useState(true);
  return h(
    'section',
    null,
    h('input', { type: 'checkbox', name: 'shown', checked: shown, onChange: () => setShown(!shown) }),
    shown && h(RpcPosts, { id: 'rpc-posts' }),
    shown && h(RpcPosts, { id: 'rpc-posts-again' }),
    shown && h(RestPosts),
  );
}

createRoot(document.getElementById('root')!).render(
  h(QueryClientProvider, { client: new QueryClient() }, h(NewPost), h(Lists)),
);
