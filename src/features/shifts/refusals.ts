/** The refusals of the shift writes, worded once for the single calls and the batch calls alike. */
import { AppError, notFound } from '../../errors.ts';

export function shiftNotActive(): AppError {
  return new AppError('shift_not_active', 'The shift is not active (it was stopped or timed out).');
}

export function shiftNotFound(): AppError {
  return notFound('The shift');
}

export function serverMismatch(): AppError {
  return new AppError('server_mismatch', 'serverId does not match the server that started this shift.');
}
