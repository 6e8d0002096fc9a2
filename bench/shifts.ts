/**
 * Completed shift history of one workspace: `plan.shifts` shifts of 15 to 240 minutes spread over the
 * profile's history days before `now`, more at weekends and in the evening (UTC) and growing over the year,
 * shared among staff by their activity weight. Yields rows day by day, oldest first, in chunks.
 */
import type { ShiftTable } from '../src/db/types.ts';
import { ENVIRONMENT, PLACE_ID, SERVER_COUNT, UNIVERSE_ID, type WorkspacePlan } from './plan.ts';
import { Random, WeightedSampler } from './random.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;
/** Every generated shift ended at least this long before `now`. */
const END_MARGIN_MS = MINUTE_MS;

const SERVERS = Array.from({ length: SERVER_COUNT }, (_, i) => `srv-${String(i + 1).padStart(3, '0')}`);

const END_REASONS = [
  { reason: 'manual', share: 0.85 },
  { reason: 'player_left', share: 0.1 },
  { reason: 'server_shutdown', share: 0.03 },
  { reason: 'heartbeat_timeout', share: 0.02 },
] as const;

function endReason(random: Random): string {
  let u = random.next();
  for (const { reason, share } of END_REASONS) {
    u -= share;
    if (u < 0) return reason;
  }
  return 'manual';
}

/** Shifts per day: the total split by day weight (largest remainder, so the sum is exact). */
function dailyCounts(total: number, days: number, firstDay: number): number[] {
  const weights = Array.from({ length: days }, (_, i) => {
    const weekday = new Date(firstDay + i * DAY_MS).getUTCDay();
    const weekly = weekday === 0 || weekday === 6 ? 1.35 : weekday === 5 ? 1.15 : 1;
    return weekly * (0.8 + (0.4 * i) / Math.max(1, days - 1));
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * total);
  const counts = exact.map(Math.floor);
  let missing = total - counts.reduce((a, b) => a + b, 0);
  const byRemainder = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r);
  for (const { i } of byRemainder) {
    if (missing <= 0) break;
    counts[i] = (counts[i] ?? 0) + 1;
    missing -= 1;
  }
  return counts;
}

/** Seconds of the day a shift starts at: 70% in the 12:00-24:00 UTC evening peak, the rest any time. */
function startOffset(random: Random): number {
  return random.chance(0.7) ? DAY_MS / 2 + random.next() * (DAY_MS / 2) : random.next() * DAY_MS;
}

export function* shiftRows(
  workspace: WorkspacePlan,
  options: { readonly now: number; readonly historyDays: number; readonly seed: number; readonly chunk: number },
): Generator<ShiftTable[]> {
  const { now, historyDays, chunk } = options;
  const random = new Random(options.seed);
  const staff = workspace.staff;
  const sampler = new WeightedSampler(staff.map((s) => s.weight));
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const firstDay = today - (historyDays - 1) * DAY_MS;
  const counts = dailyCounts(workspace.shifts, historyDays, firstDay);

  let batch: ShiftTable[] = [];
  for (let day = 0; day < historyDays; day += 1) {
    const dayStart = firstDay + day * DAY_MS;
    for (let n = 0; n < (counts[day] ?? 0); n += 1) {
      // Inactive staff stopped working at some point: draw again for shifts after that.
      let member = staff[sampler.sample(random)];
      for (let tries = 0; member && member.stoppedAt !== null && dayStart > member.stoppedAt && tries < 20; tries += 1) {
        member = staff[sampler.sample(random)];
      }
      if (!member) throw new Error('no staff member drawn');
      const durationMs = Math.floor((15 + 225 * random.next() ** 2) * MINUTE_MS);
      let startedAt = Math.floor(dayStart + startOffset(random));
      // Today's shifts (and any drawn into the future) end before now.
      const latestStart = now - END_MARGIN_MS - durationMs;
      if (startedAt > latestStart) startedAt = latestStart - random.int(0, 120) * MINUTE_MS;
      const endedAt = startedAt + durationMs;
      const reason = endReason(random);
      // The last heartbeat precedes the end by up to 30 s; a timed-out shift ends at its last heartbeat.
      const lastHeartbeatAt = reason === 'heartbeat_timeout' ? endedAt : Math.max(startedAt, endedAt - random.int(0, 30_000));
      batch.push({
        id: random.uuid(),
        workspace_id: workspace.id,
        application_id: workspace.applicationId,
        environment: ENVIRONMENT,
        staff_id: member.id,
        universe_id: UNIVERSE_ID,
        place_id: PLACE_ID,
        server_id: SERVERS[random.int(0, SERVER_COUNT - 1)] ?? 'srv-001',
        status: 'completed',
        started_at: startedAt,
        last_heartbeat_at: lastHeartbeatAt,
        last_seen_at: reason === 'heartbeat_timeout' ? Math.min(now, endedAt + 300_000) : endedAt,
        ended_at: endedAt,
        end_reason: reason,
        created_at: startedAt,
      });
      if (batch.length === chunk) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length > 0) yield batch;
}
