/// <reference lib="dom" />
// The sample app's page (served at /): the typed RPC client and its TanStack Query hooks in a browser.
import { QueryClient } from '@tanstack/react-query';
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client';
import { createElement as h, type FormEvent, useState } from 'react';
import { createRoot } from 'react-dom/client';

import { modelMeta } from '../../fixtures/generated/sqlite/crud-api/index.js';
import type { PrismaClient } from '../../fixtures/generated/sqlite/prisma/client.js';
import { createRpcClient, indexedDbStore, offlineFirst, offlineQueue } from '../../lib/client/index.js';
import { createRpcHooks, rpcPersister } from '../../lib/client/react/index.js';

// Demo authentication (see demo-auth.ts): the page acts as the seeded user 1.
const DEMO_USER_ID = '1';

// Offline first (docs/offline.md): writes wait in IndexedDB until the server can be reached, and the
// reads a reload shows come from there too, revalidated once online.
const store = indexedDbStore('nestjs-crud-api-sample');
const client = createRpcClient<PrismaClient>({
  baseUrl: `${location.origin}/api/rpc`,
  headers: { 'x-user-id': DEMO_USER_ID },
  offline: offlineFirst({ store, modelMeta }),
});
const DAY_MS = 24 * 60 * 60 * 1000;
// Reads kept for a day, as long as the persister keeps them.
const queryClient = new QueryClient({ defaultOptions: { queries: { gcTime: DAY_MS } } });
const { useRpcQuery, useRpcMutation, useOfflineQueue } = createRpcHooks({
  modelMeta,
  offline: { queue: offlineQueue(client), queryClient },
});

/** One recorded change of a post, as `post.history` answers it (newest first). */
interface Version {
  version: number;
  at: Date;
  actor: string | null;
  operation: string;
  changed: string[];
}

// The typed client does not declare the history operations (models opt in through their rules); the
// server serves them for Post, whose rules record its history (app.module.ts).
const posts = client.post as unknown as {
  history(args: { where: { id: number } }): PromiseLike<Version[]>;
  restoreVersion(args: { where: { id: number }; version: number }): PromiseLike<unknown>;
  findMany(args: { orderBy: { id: 'desc' }; take: number; asOf: Date }): PromiseLike<{ id: number; title: string }[]>;
};

/** A post's versions, each with a button that puts the post back to it. */
function History({ id }: { id: number }) {
  const versions = useRpcQuery(posts.history({ where: { id } }));
  const restore = useRpcMutation((version: number) => posts.restoreVersion({ where: { id }, version }));
  return h(
    'section',
    null,
    h('h2', null, `History of post ${id}`),
    restore.error && h('p', { role: 'alert' }, `${restore.error.status}: ${restore.error.message}`),
    h(
      'ul',
      { id: 'history' },
      versions.data?.map((v) =>
        h(
          'li',
          { key: v.version },
          `${v.at.toLocaleString()} — ${v.actor ?? 'anonymous'} — ${v.operation}: ${v.changed.join(', ')} `,
          v.operation !== 'delete' && h('button', { onClick: () => restore.mutate(v.version) }, 'Restore'),
        ),
      ),
    ),
  );
}

/** A title and a button: `submit` gets the title, and the field is emptied at once (offline too, the write is shown at once). */
function TitleForm({ name, label, submit }: { name: string; label: string; submit: (title: string) => void }) {
  const [title, setTitle] = useState('');
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(title);
    setTitle('');
  };
  return h(
    'form',
    { onSubmit },
    h('input', { name, value: title, onChange: (e) => setTitle(e.currentTarget.value) }),
    h('button', { type: 'submit' }, label),
  );
}

/** Renames a post: made offline, it is sent against the version the page showed (If-Match). */
function Rename({ id }: { id: number }) {
  const rename = useRpcMutation((title: string) => client.post.update({ where: { id }, data: { title } }));
  return h(
    'div',
    null,
    h(TitleForm, { name: 'rename', label: 'Rename', submit: (title) => rename.mutate(title) }),
    rename.error && h('p', { role: 'alert' }, `${rename.error.status}: ${rename.error.message}`),
  );
}

/** The writes waiting for the server, and the conflict holding them: the user keeps one version. */
function Queue() {
  const { pending, conflict, resolve } = useOfflineQueue();
  if (pending.length === 0) return null;
  const title = (row: unknown) => (row as { title?: string } | null)?.title ?? '(deleted)';
  return h(
    'section',
    { id: 'queue' },
    h('p', null, `${pending.length} change(s) waiting to be sent`),
    conflict &&
      h(
        'div',
        { role: 'alert' },
        `Changed meanwhile: yours "${title((conflict.args as { data?: unknown }).data)}", theirs "${title(conflict.theirs)}" `,
        h('button', { onClick: () => void resolve(conflict.key, 'mine') }, 'Keep mine'),
        h('button', { onClick: () => void resolve(conflict.key, 'theirs') }, 'Keep theirs'),
      ),
  );
}

/** The posts as they were at a time the user picks (a read with `asOf`). */
function PostsAsOf() {
  const [asOf, setAsOf] = useState('');
  return h(
    'section',
    null,
    h(
      'h2',
      null,
      'As of ',
      h('input', { type: 'datetime-local', step: 1, value: asOf, onChange: (e) => setAsOf(e.currentTarget.value) }),
    ),
    asOf && h(PostsAt, { at: new Date(asOf) }),
  );
}

function PostsAt({ at }: { at: Date }) {
  const past = useRpcQuery(posts.findMany({ orderBy: { id: 'desc' }, take: 10, asOf: at }));
  if (past.error) return h('p', { role: 'alert' }, `${past.error.status}: ${past.error.message}`);
  return h(
    'ul',
    { id: 'posts-as-of' },
    past.data?.map((post) => h('li', { key: post.id }, post.title)),
  );
}

function Posts() {
  const [selected, setSelected] = useState<number>();
  const list = useRpcQuery(
    client.post.findMany({ include: { author: { select: { name: true } } }, orderBy: { id: 'desc' }, take: 10 }),
  );
  const create = useRpcMutation((newTitle: string) =>
    client.post.create({ data: { title: newTitle, author: { connect: { id: Number(DEMO_USER_ID) } } } }),
  );
  return h(
    'main',
    null,
    h('h1', null, 'Posts'),
    // Shown at once (offline too); the list is read again once the server applied it.
    h(TitleForm, { name: 'title', label: 'Add', submit: (title) => create.mutate(title) }),
    create.error && h('p', { role: 'alert' }, `${create.error.status}: ${create.error.message}`),
    h(Queue),
    list.isPending
      ? h('p', null, 'Loading…')
      : h(
          'ul',
          { id: 'posts' },
          list.data?.map((post) =>
            h(
              'li',
              { key: post.id },
              // A post's title shows its history.
              h('a', { href: `#${post.id}`, onClick: () => setSelected(post.id) }, post.title),
              // A post waiting in the queue has no author read yet.
              ` — ${post.author?.name ?? 'not sent yet'}`,
            ),
          ),
        ),
    selected !== undefined && h(Rename, { id: selected }),
    selected !== undefined && h(History, { id: selected }),
    h(PostsAsOf),
  );
}

createRoot(document.getElementById('root')!).render(
  h(
    PersistQueryClientProvider,
    { client: queryClient, persistOptions: { persister: rpcPersister(store), maxAge: DAY_MS } },
    h(Posts),
  ),
);
