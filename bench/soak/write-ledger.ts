/**
 * The writes the server acknowledged during a soak run, per post id: what the database must hold
 * afterwards. Each id is written by one client at a time, so the last acknowledged title is the
 * one that must be stored.
 */
export class WriteLedger {
  /** Title each acknowledged post must have now; absent once deleted. */
  private readonly live = new Map<number, string>();
  private readonly deleted = new Set<number>();
  readonly acknowledged = { creates: 0, updates: 0, deletes: 0 };
  /** Writes that failed on an id it had: their effect is unknown, so the id is no longer checked. */
  uncertain = 0;

  created(id: number, title: string): void {
    this.acknowledged.creates++;
    this.live.set(id, title);
  }

  updated(id: number, title: string): void {
    this.acknowledged.updates++;
    this.live.set(id, title);
  }

  removed(id: number): void {
    this.acknowledged.deletes++;
    this.live.delete(id);
    this.deleted.add(id);
  }

  /** A write to `id` that was not acknowledged (error or timeout): it may or may not have happened. */
  forget(id: number): void {
    this.uncertain++;
    this.live.delete(id);
    this.deleted.delete(id);
  }

  /** Every id the run wrote: the rows to look up afterwards. */
  ids(): number[] {
    return [...this.live.keys(), ...this.deleted];
  }

  expectations(): { live: ReadonlyMap<number, string>; deleted: ReadonlySet<number> } {
    return { live: this.live, deleted: this.deleted };
  }
}

export interface WriteVerification {
  acknowledged: { creates: number; updates: number; deletes: number };
  /** Posts that must exist (created, not deleted) and how many were found. */
  expectedPresent: number;
  foundPresent: number;
  /** Posts that must be gone and how many are. */
  expectedAbsent: number;
  foundAbsent: number;
  /** Ids (at most 20 of each) that break the expectation. */
  missing: number[];
  resurrected: number[];
  staleTitle: number[];
  ok: boolean;
}

const SAMPLE = 20;

/** Compares the ledger with the rows found in the database for `ledger.ids()`. */
export function verifyWrites(ledger: WriteLedger, found: readonly { id: number; title: string }[]): WriteVerification {
  const { live, deleted } = ledger.expectations();
  const rows = new Map(found.map((row) => [row.id, row.title]));
  const missing: number[] = [];
  const staleTitle: number[] = [];
  const resurrected: number[] = [];
  for (const [id, title] of live) {
    const stored = rows.get(id);
    if (stored === undefined) missing.push(id);
    else if (stored !== title) staleTitle.push(id);
  }
  for (const id of deleted) if (rows.has(id)) resurrected.push(id);
  return {
    acknowledged: { ...ledger.acknowledged },
    expectedPresent: live.size,
    foundPresent: live.size - missing.length,
    expectedAbsent: deleted.size,
    foundAbsent: deleted.size - resurrected.length,
    missing: missing.slice(0, SAMPLE),
    resurrected: resurrected.slice(0, SAMPLE),
    staleTitle: staleTitle.slice(0, SAMPLE),
    ok: missing.length === 0 && resurrected.length === 0 && staleTitle.length === 0,
  };
}
