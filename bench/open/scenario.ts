/**
 * The open-loop scenario: four streams sent at fixed rates (single heartbeats, batch heartbeats, start + stop
 * cycles, and reads: week leaderboard page 1, summary and per-staff month in turn), each alone and then all at
 * once, at two levels; and first at each level `GET /health` alone at the heartbeats' rate, the reference a
 * request at that rate is measured against (what waking the process for an empty request costs). open/measure.ts
 * runs it; this module says what each operation sends.
 */
import { Random } from '../random.ts';
import type { Scenario, ScenarioContext } from '../scenarios.ts';
import { HEARTBEATS, LEADERBOARD, shiftsPerBatch, START, type Workload } from '../workload.ts';

export type StreamName = 'health' | 'heartbeats' | 'batches' | 'cycles' | 'reads';
/** The streams the mix sends together; `health`, the reference, runs alone only. */
export const MIX_STREAMS: readonly StreamName[] = ['heartbeats', 'batches', 'cycles', 'reads'];
export const STREAM_NAMES: readonly StreamName[] = ['health', ...MIX_STREAMS];

export type LevelName = 'busy' | 'heavy';

export interface OpenLevel {
  readonly name: LevelName;
  /** Operations per second of each stream (a cycle is a start and a stop; a batch carries up to 50 shifts). */
  readonly rates: Readonly<Record<StreamName, number>>;
}

/** "busy": what one deployment's busy hour sends; "heavy": twice that. `health` is sent at the heartbeats' rate. */
export const OPEN_LEVELS: readonly OpenLevel[] = [
  { name: 'busy', rates: { health: 700, heartbeats: 700, batches: 14, cycles: 7, reads: 28 } },
  { name: 'heavy', rates: { health: 1400, heartbeats: 1400, batches: 28, cycles: 14, reads: 56 } },
];

/** A cycle's stop is due this long after its start was (sent at once if the start answers later). */
export const CYCLE_HOLD_MS = 250;

export interface OpenRequest {
  /** What the request is, for its latency row: heartbeat, batch, start, stop, or the read's name. */
  readonly kind: string;
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

export interface OpenOperation {
  readonly first: OpenRequest;
  /** A second request due `afterMs` after the first was, built from the first's answer (a cycle's stop). */
  readonly then?: { readonly afterMs: number; request(firstAnswer: string): OpenRequest | null };
}

export interface OpenStream {
  readonly name: StreamName;
  readonly title: string;
  /** What one operation is, for its cost. */
  readonly unit: string;
  /** Shifts one operation carries (batches). */
  shifts?(): number;
  /** The i-th operation of a phase whose idempotency keys start with `tag`. */
  operation(i: number, tag: string): OpenOperation;
}

export interface OpenScenario {
  readonly streams: readonly OpenStream[];
}

export const READ_KINDS = ['leaderboard-week', 'summary', 'staff-month'] as const;

export function openScenario(ctx: ScenarioContext, workload: Workload, writes: readonly Scenario[]): Scenario {
  const big = ctx.plan.big;
  const { auth } = workload;
  const json = (key: string) => ({ ...auth, 'content-type': 'application/json', 'idempotency-key': key });
  let readSeed = 0;
  let random = new Random(1);

  const health: OpenStream = {
    name: 'health',
    title: 'GET /health, the reference: an empty request at the heartbeats\' rate',
    unit: 'request',
    operation: () => ({ first: { kind: 'health', method: 'GET', path: '/health', headers: {} } }),
  };
  const heartbeats: OpenStream = {
    name: 'heartbeats',
    title: 'single heartbeats, active shifts in turn',
    unit: 'heartbeat',
    operation(i, tag) {
      const shifts = workload.activeShifts();
      const shift = shifts[i % shifts.length];
      if (!shift) throw new Error('open: no active shift to send heartbeats to');
      const path = `/v1/activity/shifts/${shift.id}/heartbeat`;
      return { first: { kind: 'heartbeat', method: 'POST', path, headers: json(`${tag}-hb-${i}`), body: shift.body } };
    },
  };
  const batches: OpenStream = {
    name: 'batches',
    title: 'batch heartbeats (the shifts of one game server)',
    unit: 'batch',
    shifts: () => shiftsPerBatch(workload.batchBodies()),
    operation(i, tag) {
      const bodies = workload.batchBodies();
      const body = bodies[i % bodies.length];
      if (body === undefined) throw new Error('open: no batch to send');
      return { first: { kind: 'batch', method: 'POST', path: HEARTBEATS, headers: json(`${tag}-hbb-${i}`), body } };
    },
  };
  const cycles: OpenStream = {
    name: 'cycles',
    title: `start, then stop ${CYCLE_HOLD_MS} ms later (staff in turn)`,
    unit: 'cycle',
    operation(i, tag) {
      const staff = workload.cycleStaff[i % workload.cycleStaff.length];
      if (!staff) throw new Error('open: no staff member for start/stop cycles');
      return {
        first: { kind: 'start', method: 'POST', path: START, headers: json(`${tag}-start-${i}`), body: JSON.stringify(workload.startBody(staff, i)) },
        then: {
          afterMs: CYCLE_HOLD_MS,
          request(answer) {
            const id = (JSON.parse(answer) as { data?: { shift?: { id?: string } } }).data?.shift?.id;
            if (id === undefined) return null;
            return { kind: 'stop', method: 'POST', path: `/v1/activity/shifts/${id}/stop`, headers: json(`${tag}-stop-${i}`), body: '{"reason":"manual"}' };
          },
        },
      };
    },
  };
  const reads: OpenStream = {
    name: 'reads',
    title: 'week leaderboard page 1, summary, per-staff month (in turn, random staff)',
    unit: 'read',
    operation(i) {
      if (i === 0) {
        readSeed += 1;
        random = new Random(readSeed);
      }
      const kind = READ_KINDS[i % READ_KINDS.length] ?? 'leaderboard-week';
      const staff = random.pick(big.staff);
      if (kind === 'summary') return { first: { kind, method: 'GET', path: '/v1/activity/me/summary', headers: workload.chatHeaders(staff) } };
      if (kind === 'staff-month') {
        return { first: { kind, method: 'GET', path: `/v1/activity/staff/${staff.gameUserId}?period=month`, headers: auth } };
      }
      return { first: { kind, method: 'GET', path: `${LEADERBOARD}?period=week`, headers: auth } };
    },
  };

  return {
    name: 'open',
    title: 'fixed arrival rates (open loop): heartbeats, batches, start/stop cycles and reads, each alone, then together',
    prepare: () => workload.startActiveShifts(),
    async check() {
      for (const write of writes) await write.check();
      const staff = big.staff[0];
      if (!staff) throw new Error('open: no staff');
      ctx.contract.check('open (leaderboard)', 'GET', LEADERBOARD, await workload.get(`${LEADERBOARD}?period=week`));
      ctx.contract.check('open (summary)', 'GET', '/v1/activity/me/summary', await workload.get('/v1/activity/me/summary', workload.chatHeaders(staff)));
      const month = await workload.get(`/v1/activity/staff/${staff.gameUserId}?period=month`);
      ctx.contract.check('open (per-staff month)', 'GET', '/v1/activity/staff/{gameUserId}', month);
    },
    requests: () => [],
    open: { streams: [health, heartbeats, batches, cycles, reads] },
  };
}
