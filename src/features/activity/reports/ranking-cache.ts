/**
 * Computed leaderboard rankings, kept so that paging through a leaderboard, or many readers asking for the same
 * one, cost a page slice rather than a pass over the workspace's shifts.
 *
 * An entry is served only while both hold:
 * - the workspace's `activityVersion` is the one it was computed at: every write that changes what is ranked
 *   (a stop, staff created on accept, provisioning) moves it, in the writer's transaction, in whichever process
 *   or instance wrote, and each read takes the version from the database before looking here;
 * - `now` lies between the instant it was computed for and `validUntil`, the first instant an active shift live
 *   at computation time could time out and so start counting (timed-out shifts count before any write records
 *   them).
 * So a cached ranking is always the one a fresh computation would give. Concurrent requests for an entry that
 * is being computed wait for that computation instead of starting their own (single flight).
 *
 * An entry of an older version is not thrown away: `advance` may bring it to the new version (recomputing only
 * what changed between the two, see the leaderboard in service.ts). Advancing keeps the entry's validity window:
 * nothing that was live when it was computed can time out inside it, whichever staff were recomputed.
 */

export interface RankingEntry<T> {
  readonly ranked: readonly T[];
  /** The instant it was computed for: an earlier `now` (a clock set back) is not served from it. */
  readonly validFrom: number;
  /** Last instant (epoch ms, inclusive) the ranking stays exact without a write. */
  readonly validUntil: number;
}

interface Slot<T> {
  readonly version: number;
  readonly entry: Promise<RankingEntry<T>>;
  settled: RankingEntry<T> | null;
}

/** Whether the entry is exact at `now` without a write (see RankingEntry). */
function isValidAt(entry: RankingEntry<unknown>, now: number): boolean {
  return entry.validFrom <= now && now <= entry.validUntil;
}

/** Brings `previous` (computed at `fromVersion`) to the requested version, or null: compute in full. */
export type Advance<T> = (previous: RankingEntry<T>, fromVersion: number) => Promise<RankingEntry<T> | null>;

export class RankingCache<T> {
  private readonly slots = new Map<string, Slot<T>>();

  private readonly maxEntries: number;
  constructor(maxEntries = 32) {
    this.maxEntries = maxEntries;
  }

  /**
   * The ranking for `key` at `version`: from the cache when it holds one computed at that version and still
   * valid at `now`, else from `compute` (shared by concurrent callers).
   */
  async get(
    key: string,
    version: number,
    now: number,
    compute: () => Promise<RankingEntry<T>>,
    advance?: Advance<T>,
  ): Promise<readonly T[]> {
    const slot = this.slots.get(key);
    if (slot && slot.version === version) {
      if (slot.settled === null) return (await slot.entry).ranked;
      if (isValidAt(slot.settled, now)) {
        // Refresh the entry's place in the eviction order (least recently used goes first).
        this.slots.delete(key);
        this.slots.set(key, slot);
        return slot.settled.ranked;
      }
    }
    // A request that read an older version than the entry's (it raced a write) computes for itself only.
    if (slot && slot.version > version) return (await compute()).ranked;
    if (slot && slot.version < version && advance !== undefined) {
      const from = slot;
      return (await this.fill(key, version, () => this.advanceFrom(from, now, compute, advance))).ranked;
    }
    return (await this.fill(key, version, compute)).ranked;
  }

  /** `from`'s ranking (once settled) brought forward when still valid at `now`; else a full computation. */
  private async advanceFrom(
    from: Slot<T>,
    now: number,
    compute: () => Promise<RankingEntry<T>>,
    advance: Advance<T>,
  ): Promise<RankingEntry<T>> {
    let previous: RankingEntry<T> | null = from.settled;
    if (previous === null) previous = await from.entry.catch(() => null);
    if (previous !== null && isValidAt(previous, now)) {
      const advanced = await advance(previous, from.version);
      if (advanced !== null) return advanced;
    }
    return compute();
  }

  get size(): number {
    return this.slots.size;
  }

  private fill(key: string, version: number, compute: () => Promise<RankingEntry<T>>): Promise<RankingEntry<T>> {
    const entry = compute();
    const slot: Slot<T> = { version, entry, settled: null };
    this.slots.delete(key);
    this.slots.set(key, slot);
    this.evict();
    entry.then(
      (value) => {
        slot.settled = value;
      },
      () => {
        // A failed computation is not kept: the next request computes again.
        if (this.slots.get(key) === slot) this.slots.delete(key);
      },
    );
    return entry;
  }

  private evict(): void {
    while (this.slots.size > this.maxEntries) {
      const oldest = this.slots.keys().next();
      if (oldest.done === true) return;
      this.slots.delete(oldest.value);
    }
  }
}
