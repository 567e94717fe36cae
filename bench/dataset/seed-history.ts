import type { SampleDatabase } from '../../fixtures/blog/database/create-prisma-client.js';
import { plainRow, rowKey } from '../../lib/history/stored-row.js';
import { HISTORY_SIZE, historyTimeAt } from './history-span.js';

const BATCH = 1_000;

/**
 * The history the asOf scenarios read: `HISTORY_SIZE` updates of the seeded posts' titles, spread
 * over every post, written straight into HistoryEntry as the module records them (the whole row
 * before and after, as JSON). Each post's last change leaves the row it has now.
 */
export async function seedHistory({ prisma }: SampleDatabase): Promise<void> {
  // As JSON holds them: dates, BigInts and Decimals as text.
  type JsonRow = Record<string, string | number | boolean | null>;
  const posts = (await prisma.post.findMany({ orderBy: { id: 'asc' } })).map((row) => plainRow(row) as JsonRow);
  // Post of change `index`: a step coprime to the count visits every post in turn.
  const postAt = (index: number) => posts[(index * 7919) % posts.length]!;
  const changesOf = new Map<unknown, number>();
  for (let index = 0; index < HISTORY_SIZE; index++) {
    const { id } = postAt(index);
    changesOf.set(id, (changesOf.get(id) ?? 0) + 1);
  }
  const seen = new Map<unknown, number>();
  const title = (post: JsonRow, revision: number, of: number) =>
    revision === of ? post.title : `${String(post.title)}, revision ${revision}`;
  const entries = Array.from({ length: HISTORY_SIZE }, (_, index) => {
    const post = postAt(index);
    const revision = (seen.get(post.id) ?? 0) + 1;
    seen.set(post.id, revision);
    const of = changesOf.get(post.id)!;
    return {
      model: 'Post',
      rowKey: rowKey({ id: post.id }),
      operation: 'update',
      at: historyTimeAt(index),
      before: { ...post, title: `${String(post.title)}, revision ${revision - 1}` },
      data: { ...post, title: title(post, revision, of) },
      changed: ['title'],
      actor: String(post.authorId),
    };
  });
  for (let from = 0; from < entries.length; from += BATCH)
    await prisma.historyEntry.createMany({ data: entries.slice(from, from + BATCH) });
}
