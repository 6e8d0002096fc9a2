import { toIso } from '../../../shared/clock.ts';
import type { HistoryRow } from './repository.ts';
import type { HistoryEntry, HistoryType } from './schemas.ts';

/** What each recorded command of a submission is called in its history. */
export const HISTORY_COMMAND_TYPES: Readonly<Record<string, HistoryType>> = {
  'application.submission.submit': 'submitted',
  'application.submission.mark_under_review': 'marked_under_review',
  'application.submission.update_review': 'review_updated',
  'application.submission.accept': 'accepted',
  'application.submission.reject': 'rejected',
};

function reviewNote(payload: string): string | null {
  const parsed: unknown = JSON.parse(payload);
  if (parsed === null || typeof parsed !== 'object') return null;
  const note = (parsed as Record<string, unknown>).reviewNote;
  return typeof note === 'string' ? note : null;
}

export function toHistoryEntry(row: HistoryRow): HistoryEntry {
  const type = HISTORY_COMMAND_TYPES[row.type];
  if (type === undefined) throw new Error(`a submission's history has an unknown command type: ${row.type}`);
  return {
    commandId: row.command_id,
    eventId: row.event_id,
    type,
    actor:
      row.actor_type === 'api_key'
        ? { type: 'api_key', id: row.actor_id, name: row.application_name }
        : { type: 'dashboard_user', id: row.actor_id, name: null },
    at: toIso(Number(row.created_at)),
    reviewNote: reviewNote(row.payload),
  };
}
