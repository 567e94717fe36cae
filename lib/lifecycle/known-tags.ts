import { noneMatch } from '../shared/http-caching.js';

/** What the module heard of commits: a mark now, and whether models changed after a mark (`LiveQueries`). */
export interface ChangeClock {
  readonly now: number;
  changedSince(models: Iterable<string>, since: number): boolean;
}

/** The validators of a GET's answer (`ETag`, `Cache-Control`, `Vary`), what its read reached, and since when it holds. */
interface KnownTag {
  headers: Readonly<Record<string, string>>;
  reads: ReadonlySet<string>;
  since: number;
  expires: number;
}

/** Most answers remembered: the oldest are forgotten first (a forgotten one costs one read). */
const MAX_KNOWN = 10_000;

/**
 * The tags of answers a conditional GET revalidated (`caching.revalidate: 'changes'`), by request
 * key (its URL, the headers it varies on, its client and policy context). A tag holds while no
 * change to a model its read reached has been heard since the read began, for `trustFor`
 * milliseconds at most: what a commit the module does not hear of, or a rule reading the clock,
 * can make stale is bounded by it.
 */
export class KnownTags {
  private readonly tags = new Map<string, KnownTag>();

  constructor(
    private readonly clock: ChangeClock,
    private readonly trustFor: number,
  ) {}

  /** The headers of a `304` for `key` when `ifNoneMatch` lists its tag and the tag still holds. */
  notModified(key: string, ifNoneMatch: string | readonly string[]): Readonly<Record<string, string>> | undefined {
    const known = this.tags.get(key);
    if (!known) return undefined;
    if (known.expires <= Date.now() || this.clock.changedSince(known.reads, known.since)) {
      this.tags.delete(key);
      return undefined;
    }
    return noneMatch(ifNoneMatch, known.headers.ETag!) ? undefined : known.headers;
  }

  /** Remembers an answer's validators: `reads` are the models its read reached, `since` the mark taken before it. */
  remember(key: string, headers: Readonly<Record<string, string>>, reads: ReadonlySet<string>, since: number): void {
    if (this.clock.changedSince(reads, since)) return;
    this.tags.delete(key);
    if (this.tags.size >= MAX_KNOWN) this.tags.delete(this.tags.keys().next().value!);
    this.tags.set(key, { headers, reads, since, expires: Date.now() + this.trustFor });
  }

  get size(): number {
    return this.tags.size;
  }
}
