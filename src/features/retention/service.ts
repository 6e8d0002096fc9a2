/**
 * Retention (docs/OPERATING.md, "Retention"): command and event records, webhook events, deliveries and attempts
 * older than RETENTION_DAYS are deleted, and console sign-in codes that expired before then (used or not); shifts, totals, submissions, notices and staff are never pruned. The
 * background job (src/runtime/jobs.ts) and the `prune` command run the same deletion.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { DAY_MS, type Clock } from '../../shared/clock.ts';
import type { Store } from '../../db/store.ts';
import type { Executor } from '../../db/types.ts';
import { deleteSignInCodesBefore } from '../console/upkeep.ts';
import { deleteCommandsBefore, deleteEventsBefore } from '../../journal/upkeep.ts';
import { deleteAttemptsBefore, deleteDeliveriesBefore, deleteWebhookEventsBefore } from '../../webhooks/upkeep.ts';

/**
 * Rows one batch deletes. On SQLite a batch runs in the serving thread, so its duration is an event-loop stall:
 * 500 is the largest batch that costs about what a smaller one does (a statement's fixed cost dominates), keeping
 * each stall short with half the statements of 250 (bench/prune.ts; the figures: docs/OPERATING.md, "Measured:
 * pruning a million rows").
 */
export const PRUNE_BATCH = 500;

/**
 * The tables pruned, children before their parents (each of the first five refers to the next by a foreign key;
 * the sign-in codes stand alone).
 */
export const PRUNED_TABLES = [
  'webhook_attempts',
  'webhook_deliveries',
  'webhook_events',
  'events',
  'commands',
  'console_sign_in_codes',
] as const;

export type PrunedTable = (typeof PRUNED_TABLES)[number];

/** Rows deleted, per table. */
export type PruneResult = Record<PrunedTable, number>;

/** Each pruned table's batch statement, run by its owner's module (docs/DATA.md). */
export const DELETE_BATCH: Record<PrunedTable, (db: Executor, cutoff: number, limit: number) => Promise<number>> = {
  webhook_attempts: deleteAttemptsBefore,
  webhook_deliveries: deleteDeliveriesBefore,
  webhook_events: deleteWebhookEventsBefore,
  events: deleteEventsBefore,
  commands: deleteCommandsBefore,
  console_sign_in_codes: deleteSignInCodesBefore,
};

export interface PruneOptions {
  /** Records older than this many days go; 0 keeps everything. */
  readonly retentionDays: number;
  readonly batch?: number;
  /** Called after each batch with the table, its running count, and whether the table is done. */
  readonly onBatch?: (table: PrunedTable, deleted: number, done: boolean) => void;
}

/** The instant before which records go, or null when nothing is pruned. */
export function retentionCutoff(now: number, retentionDays: number): number | null {
  return retentionDays === 0 ? null : now - retentionDays * DAY_MS;
}

/**
 * Deletes the records older than the retention window, table by table in PRUNED_TABLES' order, in batches of at
 * most `batch` rows, yielding to the event loop between batches. Each batch is a transaction of the store's writer
 * (`write`): on SQLite the background checkpointer can then hold it while the log starts over, where a batch
 * written beside the writer let the log grow until a commit checkpointed it on the event loop (a stall; see
 * docs/OPERATING.md). An interrupted prune leaves no partial batch, and the next one carries on. Safe when several
 * instances run it at once.
 */
export async function pruneOldRecords(write: Store['write'], clock: Clock, options: PruneOptions): Promise<PruneResult> {
  const result: PruneResult = {
    webhook_attempts: 0,
    webhook_deliveries: 0,
    webhook_events: 0,
    events: 0,
    commands: 0,
    console_sign_in_codes: 0,
  };
  const cutoff = retentionCutoff(clock.now(), options.retentionDays);
  if (cutoff === null) return result;
  const batch = options.batch ?? PRUNE_BATCH;
  for (const table of PRUNED_TABLES) {
    for (;;) {
      const deleted = await write((trx) => DELETE_BATCH[table](trx, cutoff, batch));
      result[table] += deleted;
      options.onBatch?.(table, result[table], deleted < batch);
      if (deleted < batch) break;
      await yieldToEventLoop();
    }
  }
  return result;
}
