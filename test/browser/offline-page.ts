/// <reference lib="dom" />
// The page of test/browser/offline.spec.ts: an application of the offline client as its docs
// describe it. Its writes go through the durable queue (IndexedDB), its reads are cached by
// TanStack Query and persisted in the same store; it lists the posts and their comments, writes
// through forms, and shows the queue: what is pending, and the conflict holding it.
import { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { createElement as h, type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import { createRpcClient, indexedDbStore, offlineFirst, offlineQueue } from '../../lib/client/index.js';
import { createRpcHooks, rpcPersister } from '../../lib/client/react/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;

const store = indexedDbStore();
const client = createRpcClient<PrismaClient>({
  baseUrl: `${location.origin}/api/rpc`,
  headers: { 'x-user-id': '1' },
  offline: offlineFirst({ store, modelMeta }),
});
const queue = offlineQueue(client);
const queryClient = new QueryClient({ defaultOptions: { queries: { gcTime: DAY_MS } } });
const { useRpcQuery, useRpcMutation, useOfflineQueue } = createRpcHooks({ modelMeta, offline: { queue, queryClient } });

/** What the test reads of the page besides what it shows: the store, to wait for what it keeps, and the queue itself. */
declare global {
  interface Window {
    offlinePage: {
      stored(key: string): Promise<string | undefined>;
      /** The queue once it read what the store kept: how many writes it holds, and the key of a held conflict. */
      queue(): Promise<{ pending: number; conflict: string | undefined }>;
    };
  }
}
window.offlinePage = {
  stored: (key) => store.get(key),
  queue: async () => {
    await queue.ready;
    return { pending: queue.pending.length, conflict: queue.conflict?.key };
  },
};

/** A text input and a button: `submit` gets the text, and the input is emptied. */
function TextForm({ name, label, submit }: { name: string; label: string; submit: (text: string) => void }) {
  const [text, setText] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(text);
    setText('');
  };
  return h(
    'form',
    { className: name, onSubmit },
    h('input', { name, value: text, onChange: (e) => setText(e.currentTarget.value) }),
    h('button', { type: 'submit' }, label),
  );
}

function NewPost() {
  const create = useRpcMutation((title: string) =>
    client.post.create({ data: { title, author: { connect: { id: 1 } } } }),
  );
  return h(TextForm, { name: 'new-post', label: 'Add post', submit: (title) => create.mutate(title) });
}

interface CommentRow {
  id: string;
  body: string;
  postId: number;
}

/** One post: its title, a form to rename it, its comments and a form to add one (its id may be a placeholder). */
function Post({ post, comments }: { post: { id: number; title: string }; comments: CommentRow[] }) {
  const rename = useRpcMutation((title: string) => client.post.update({ where: { id: post.id }, data: { title } }));
  const comment = useRpcMutation((body: string) =>
    client.comment.create({ data: { body, post: { connect: { id: post.id } } } }),
  );
  return h(
    'li',
    { 'data-id': post.id, 'data-title': post.title },
    h('span', { className: 'title' }, post.title),
    h(TextForm, { name: 'rename', label: 'Rename', submit: (title) => rename.mutate(title) }),
    // A refused rename is reported to the page (its mutation's error).
    rename.error && h('output', { className: 'refused' }, `${rename.error.status} ${rename.error.errorCode}`),
    h(
      'ul',
      { className: 'comments' },
      comments.map((each) => h('li', { key: each.id }, each.body)),
    ),
    h(TextForm, { name: 'comment', label: 'Comment', submit: (body) => comment.mutate(body) }),
  );
}

/** The posts, each with its comments: one read of each model (a created row shows in unfiltered reads). */
function Posts() {
  const posts = useRpcQuery(client.post.findMany({ orderBy: { id: 'asc' } }));
  const comments = useRpcQuery(client.comment.findMany({ orderBy: { createdAt: 'asc' } }));
  return h(
    'ul',
    { id: 'posts' },
    posts.data?.map((post) =>
      h(Post, {
        key: post.id,
        post,
        comments: (comments.data ?? []).filter((each) => each.postId === post.id),
      }),
    ),
  );
}

/** The titles from the server's live stream of the read (shown when the page's URL has `?live`). */
function LiveTitles() {
  const live = useRpcQuery(client.post.findMany({ select: { title: true }, orderBy: { id: 'asc' } }), { live: true });
  return h(
    'ul',
    { id: 'live' },
    live.data?.map((post) => h('li', { key: post.title }, post.title)),
  );
}

/** The queue: how many writes wait, and the conflict holding it with both versions and the three ways out. */
function Queue() {
  const { pending, conflict, resolve } = useOfflineQueue();
  const [merged, setMerged] = useState('');
  const mine = conflict?.args as { where: { id: number }; data: { title: string } } | undefined;
  const theirs = conflict?.theirs as { title: string } | null | undefined;
  return h(
    'section',
    { id: 'queue' },
    h('output', { id: 'pending' }, String(pending.length)),
    conflict &&
      h(
        'div',
        { id: 'conflict', 'data-key': conflict.key },
        h('output', { className: 'mine' }, mine?.data.title),
        h('output', { className: 'theirs' }, theirs === null ? '(deleted)' : theirs?.title),
        h('button', { id: 'keep-mine', onClick: () => void resolve(conflict.key, 'mine') }, 'Keep mine'),
        h('button', { id: 'keep-theirs', onClick: () => void resolve(conflict.key, 'theirs') }, 'Keep theirs'),
        h('input', { id: 'merged', value: merged, onChange: (e) => setMerged(e.currentTarget.value) }),
        h(
          'button',
          {
            id: 'merge',
            onClick: () => void resolve(conflict.key, { args: { where: mine!.where, data: { title: merged } } }),
          },
          'Merge',
        ),
      ),
  );
}

createRoot(document.getElementById('root')!).render(
  h(
    PersistQueryClientProvider,
    { client: queryClient, persistOptions: { persister: rpcPersister(store), maxAge: DAY_MS } },
    h(Queue),
    h(NewPost),
    h(Posts),
    location.search === '?live' && h(LiveTitles),
  ),
);
