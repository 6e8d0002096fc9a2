/**
 * The refusals of the shift writes: the error each answers with, once for the single calls and the batch calls
 * alike. Which applies is the acceptance rule's (rules.ts, refusalFor).
 */
import { AppError, notFound } from '../../../shared/errors.ts';
import { outOfRange, type ShiftRefusal } from './rules.ts';

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
