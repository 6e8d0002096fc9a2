/**
 * The open-loop timetable: each stream's operations are due at fixed instants (rate per second, evenly spaced,
 * each stream shifted by a fraction of its own interval so that streams do not all fire at once), whether or not
 * earlier answers came. Pure: times are milliseconds from the start of the phase.
 */

/** When the i-th operation (from 0) of a stream at `rate` per second, shifted by `offsetMs`, is due. */
export function dueAt(index: number, rate: number, offsetMs: number): number {
  return offsetMs + (index * 1000) / rate;
}

/** How many operations are due at or before `elapsedMs` (the next one to send has this index). */
export function dueCount(elapsedMs: number, rate: number, offsetMs: number): number {
  if (elapsedMs < offsetMs) return 0;
  return Math.floor(((elapsedMs - offsetMs) * rate) / 1000 + 1e-9) + 1;
}

/** How many operations a stream schedules in a phase of `phaseMs` (those due before its end). */
export function scheduledCount(phaseMs: number, rate: number, offsetMs: number): number {
  return phaseMs <= offsetMs ? 0 : Math.ceil(((phaseMs - offsetMs) * rate) / 1000 - 1e-9);
}

/**
 * Offsets that spread streams over time: the k-th of n streams starts k/n of its own interval late. One stream
 * starts at 0.
 */
export function streamOffsets(rates: readonly number[]): number[] {
  return rates.map((rate, k) => (rates.length === 0 || rate <= 0 ? 0 : ((k / rates.length) * 1000) / rate));
}

/** Whether an operation due at `dueMs` belongs to the measured window [fromMs, toMs). */
export function inWindow(dueMs: number, fromMs: number, toMs: number): boolean {
  return dueMs >= fromMs && dueMs < toMs;
}
