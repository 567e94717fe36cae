/** A read's last successful answer: its entity tag and body text. */
export interface CachedRead {
  etag: string;
  text: string;
}

/**
 * The last answers of reads, to revalidate with `If-None-Match`; the least recently used entry goes
 * first once `maxEntries` are kept. Bodies are kept as text so that each hit decodes a fresh result
 * a caller may change without changing the next one.
 */
export class ReadCache {
  private readonly entries = new Map<string, CachedRead>();

  constructor(private readonly maxEntries: number) {}

  get(key: string): CachedRead | undefined {
    const entry = this.entries.get(key);
    if (entry) this.touch(key, entry);
    return entry;
  }

  /** Keeps an answer with its tag; an answer without one (validators off) forgets the request. */
  remember(key: string, etag: string | null, text: string): void {
    if (etag === null) return void this.entries.delete(key);
    this.touch(key, { etag, text });
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The kept answers, least recently used first: what an offline client stores across reloads. */
  snapshot(): [string, CachedRead][] {
    return [...this.entries];
  }

  /** Keeps the answers of a snapshot, as the least recently used ones. */
  restore(entries: readonly [string, CachedRead][]): void {
    const newer = [...this.entries];
    this.entries.clear();
    for (const [key, entry] of [...entries, ...newer].slice(-this.maxEntries)) this.touch(key, entry);
  }

  /** Reinserts the entry: a Map iterates in insertion order, so the first key is the least recently used. */
  private touch(key: string, entry: CachedRead): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
  }
}

/**
 * The cache key of a read: its URL and every header sent with it, so callers told apart by a
 * header (`Authorization`, a tenant...) never share an entry.
 */
export function readCacheKey(url: string, headers: Headers): string {
  // Headers iterate sorted by lowercased name; a field value cannot hold a line break.
  const lines = [url];
  headers.forEach((value, name) => lines.push(`${name}: ${value}`));
  return lines.join('\n');
}
