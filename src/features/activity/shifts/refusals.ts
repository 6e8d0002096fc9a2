/**
 * The refusals of the shift writes: which applies, in the order the rules apply, and their wording, once for the
 * single calls and the batch calls alike.
 */
import { AppError, notFound } from '../../../shared/errors.ts';
import type { ShiftRow } from './repository.ts';
import { isStale, outOfRange } from './rules.ts';
import { isActive } from './status.ts';

export function shiftNotActive(): AppError {
  return new AppError('shift_not_active', 'The shift is not active (it was stopped or timed out).');
}

export function shiftNotFound(): AppError {
  return notFound('The shift');
}

function serverMismatch(): AppError {
  return new AppError('server_mismatch', 'serverId does not match the server that started this shift.');
}

/** A heartbeat's or stop's instant before the shift's start (400). */
function beforeStart(field: 'recordedAt' | 'endedAt'): AppError {
  return outOfRange(field, "must not be before the shift's startedAt");
}

/** What refuses a heartbeat or stop of a shift. `timed_out`: the shift is to be completed, then 409 as not active. */
export type ShiftRefusal = 'not_found' | 'shift_not_active' | 'timed_out' | 'server_mismatch' | 'before_start';

/** A heartbeat or stop, as the rules judge it. */
export interface ShiftWrite {
  /** Its game-server instant (`recordedAt`, `endedAt`). */
  readonly at: number;
  /** The server a heartbeat names, if any (a stop names none). */
  readonly serverId: string | null;
  readonly staleBefore: number;
}

/**
 * Why `write` is refused for `shift` (the caller's own, or undefined when it has none with that id), in the order
 * the rules apply: unknown, completed, timed out, another server's, an instant before its start. Null when none
 * applies.
 */
export function refusalFor(shift: ShiftRow | undefined, write: ShiftWrite): ShiftRefusal | null {
  if (!shift) return 'not_found';
  if (!isActive(shift)) return 'shift_not_active';
  if (isStale(shift, write.staleBefore)) return 'timed_out';
  if (write.serverId !== null && write.serverId !== shift.server_id) return 'server_mismatch';
  if (write.at < shift.started_at) return 'before_start';
  return null;
}

/** The error a refusal answers with; `field` names the write's instant. */
export function refusalError(refusal: ShiftRefusal, field: 'recordedAt' | 'endedAt'): AppError {
  switch (refusal) {
    case 'not_found':
      return shiftNotFound();
    case 'shift_not_active':
    case 'timed_out':
      return shiftNotActive();
    case 'server_mismatch':
      return serverMismatch();
    case 'before_start':
      return beforeStart(field);
  }
}
