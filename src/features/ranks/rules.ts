/** The rules of ranks and their sync (docs/ROBLOX.md), written once. */

export const RANK_NAME_MAX = 60;
export const REASON_MAX = 500;
/** How many changes `GET /v1/staff/{staffId}/rank-changes` lists. */
export const LIST_LIMIT = 50;
export const PERMISSION = 'staff.rank';

export const SYNC_STATUSES = ['pending', 'applied', 'failed', 'not_configured'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** How long a change's sync is retried, counted from the change (as a webhook delivery's window). */
export const SYNC_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A failed try: Open Cloud's status, `code` and `message`. */
export interface SyncError {
  readonly status: number | null;
  readonly code: string;
  readonly message: string;
}

/** Characters as the contract counts them (code points). */
export function characters(text: string): number {
  return [...text].length;
}
