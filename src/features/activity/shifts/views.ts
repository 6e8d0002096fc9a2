/** How shift rows are shown: instants as ISO strings, durations in whole seconds and minutes (rounded down). */
import { toIso } from '../../../shared/clock.ts';
import { wholeMinutes } from '../periods/period-math.ts';
import type { ShiftRow, ShiftWithStaff } from './repository.ts';
import { wholeSecondsBetween } from './rules.ts';
import { isActive } from './status.ts';
import type { ActiveShift, EndReason, HeartbeatShift, ShiftDetail, StartShiftResult, StoppedShift } from './schemas.ts';

export function startedView(row: ShiftRow): StartShiftResult['shift'] {
  return {
    id: row.id,
    status: 'active',
    startedAt: toIso(row.started_at),
    lastHeartbeatAt: toIso(row.last_heartbeat_at),
  };
}

export function heartbeatView(row: { readonly id: string; readonly last_heartbeat_at: number }): HeartbeatShift {
  return { id: row.id, status: 'active', lastHeartbeatAt: toIso(row.last_heartbeat_at) };
}

export function stoppedView(row: ShiftRow): StoppedShift {
  const endedAt = row.ended_at ?? row.last_heartbeat_at;
  const durationSeconds = wholeSecondsBetween(row.started_at, endedAt);
  return {
    id: row.id,
    status: 'completed',
    startedAt: toIso(row.started_at),
    endedAt: toIso(endedAt),
    durationSeconds,
    minutes: wholeMinutes(durationSeconds),
    endReason: (row.end_reason ?? 'manual') as EndReason,
  };
}

type LiveShiftRow = Pick<
  ShiftRow,
  'id' | 'started_at' | 'last_heartbeat_at' | 'universe_id' | 'place_id' | 'server_id'
>;

/** The fields every view of a live shift shows (the active list, one shift, the reports' `activeShift`). */
export function liveShiftFields(row: LiveShiftRow, now: number) {
  return {
    id: row.id,
    startedAt: toIso(row.started_at),
    lastHeartbeatAt: toIso(row.last_heartbeat_at),
    elapsedSeconds: wholeSecondsBetween(row.started_at, now),
    universeId: row.universe_id,
    placeId: row.place_id,
    serverId: row.server_id,
  };
}

export function activeView(row: ShiftWithStaff, now: number): ActiveShift {
  return {
    ...liveShiftFields(row, now),
    status: 'active',
    staff: { id: row.staff_id, displayName: row.staff_display_name, gameUserId: row.staff_game_user_id },
  };
}

export function detailView(row: ShiftWithStaff, now: number): ShiftDetail {
  if (isActive(row)) return activeView(row, now);
  const { id, status, startedAt, ...ended } = stoppedView(row);
  return {
    id,
    status,
    startedAt,
    lastHeartbeatAt: toIso(row.last_heartbeat_at),
    universeId: row.universe_id,
    placeId: row.place_id,
    serverId: row.server_id,
    staff: { id: row.staff_id, displayName: row.staff_display_name, gameUserId: row.staff_game_user_id },
    ...ended,
  };
}
