/**
 * Dataset and load sizes. `full` is what docs/BENCHMARKS.md reports; `quick` is the CI smoke run: the same
 * scenarios on small data with short durations, asserting correctness only.
 */

/** Bump when the generated data changes in any way: cached databases of another version are regenerated. */
export const GENERATOR_VERSION = 3;
/** Every dataset is drawn from this seed, so two runs of one version measure the same data. */
export const DATASET_SEED = 20261121;

export type ProfileName = 'full' | 'quick';

export interface WorkspaceSize {
  readonly staff: number;
  readonly shifts: number;
}

export interface Profile {
  readonly name: ProfileName;
  readonly big: WorkspaceSize;
  readonly small: WorkspaceSize & { readonly count: number };
  /** Submissions to the big workspace's application form, spread over the history days. */
  readonly submissions: number;
  /** Completed shifts are spread over this many days before "now". */
  readonly historyDays: number;
  /** Measured seconds per scenario, after `warmupSeconds` of unmeasured load. */
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly connections: number;
  /** Active shifts started before the heartbeat scenario (one per staff member). */
  readonly heartbeatShifts: number;
  /** The deep leaderboard page starts after this position. */
  readonly deepPosition: number;
  /** Reuse a generated SQLite database file between runs (bench/.cache). */
  readonly cacheSqlite: boolean;
  /** The open-loop scenario's phases (open/measure.ts). */
  readonly open: OpenTiming;
}

export interface OpenTiming {
  /** Quiet time before the idle measurement, so the previous load's tail (commits, checkpoints) is over. */
  readonly settleSeconds: number;
  /** Measured seconds without requests: the background jobs' cost. */
  readonly idleSeconds: number;
  /** Each phase (a stream alone, or the mix, at one level) runs this long unmeasured, then `phaseSeconds` measured. */
  readonly warmupSeconds: number;
  readonly phaseSeconds: number;
}

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  full: {
    name: 'full',
    big: { staff: 5000, shifts: 1_000_000 },
    small: { count: 50, staff: 20, shifts: 2000 },
    submissions: 100_000,
    historyDays: 365,
    durationSeconds: 10,
    warmupSeconds: 2,
    connections: 32,
    heartbeatShifts: 2000,
    deepPosition: 4000,
    cacheSqlite: true,
    // 2 levels x 5 phases x 22 s + 12 s: under 4 minutes of load, so `--only open` stays near 6 minutes on
    // PostgreSQL with its dataset generated first.
    open: { settleSeconds: 2, idleSeconds: 10, warmupSeconds: 2, phaseSeconds: 20 },
  },
  quick: {
    name: 'quick',
    big: { staff: 500, shifts: 50_000 },
    small: { count: 5, staff: 20, shifts: 2000 },
    submissions: 400,
    historyDays: 365,
    durationSeconds: 1.5,
    warmupSeconds: 0,
    connections: 32,
    heartbeatShifts: 200,
    deepPosition: 400,
    cacheSqlite: false,
    // A smoke run: every stream answers correctly at both levels; 5.75 s of load, and the time the answers take.
    open: { settleSeconds: 0.25, idleSeconds: 0.5, warmupSeconds: 0, phaseSeconds: 0.5 },
  },
};
