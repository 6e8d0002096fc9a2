/**
 * What the scenarios share: the big workspace's key and chat headers, its active staff split between heartbeats
 * (the shifts started once per run, and their batches per game server) and start/stop cycles (the others, so the
 * two never meet), request bodies, and the JSON client bound to the server under test.
 */
import type { ResponseContract } from './contract.ts';
import { mapConcurrent, requestJson, type JsonResponse } from './http.ts';
import { PLACE_ID, SERVER_COUNT, UNIVERSE_ID, type DatasetPlan, type StaffPlan } from './plan.ts';
import type { Profile } from './profiles.ts';

export const LEADERBOARD = '/v1/activity/leaderboard';
export const HEARTBEATS = '/v1/activity/shifts/heartbeats';
export const START = '/v1/activity/shifts/start';
export const ACTIVE_SHIFTS = '/v1/activity/shifts/active';
export const STOP_TEMPLATE = '/v1/activity/shifts/{shiftId}/stop';
/** Shifts per batch heartbeat (a game server of 50 staff on shift); fewer where a server has fewer. */
export const HEARTBEAT_BATCH_SIZE = 50;
/** Listings (and stops of what they found) freeCycleStaff tries before it gives up. */
const FREE_PASSES = 5;

export interface ActiveShift {
  readonly id: string;
  /** The heartbeat's body: `{ serverId }`. */
  readonly body: string;
}

interface ShiftCursor {
  readonly cursorStartedAt: string;
  readonly cursorId: string;
}

interface ActiveShiftPage {
  readonly shifts: readonly { readonly id: string; readonly staff: { readonly gameUserId: string } }[];
  readonly nextCursor: ShiftCursor | null;
}

export interface WorkloadContext {
  readonly baseUrl: string;
  readonly plan: DatasetPlan;
  readonly profile: Profile;
  readonly contract: ResponseContract;
  /** Unique per run: idempotency keys never repeat across runs on one database. */
  readonly runTag: string;
  readonly log: (message: string) => void;
}

export function fail(scenario: string, message: string): never {
  throw new Error(`${scenario}: ${message}`);
}

export function dataOf<T>(response: JsonResponse): T {
  return (response.body as { data: T }).data;
}

export function serverOf(index: number): string {
  return `srv-${String((index % SERVER_COUNT) + 1).padStart(3, '0')}`;
}

export interface Workload {
  readonly auth: Readonly<Record<string, string>>;
  /** Staff whose shifts heartbeats go to; and the others, for start/stop cycles. */
  readonly heartbeatStaff: readonly StaffPlan[];
  readonly cycleStaff: readonly StaffPlan[];
  /**
   * Stops every active shift of a start/stop staff member, found by listing the active shifts (a load phase can end
   * between a start and its stop, or with a start's answer still on its way).
   */
  freeCycleStaff(): Promise<void>;
  chatHeaders(staff: StaffPlan): Record<string, string>;
  startBody(staff: StaffPlan, index: number): Record<string, string>;
  get(path: string, headers?: Readonly<Record<string, string>>): Promise<JsonResponse>;
  post(path: string, key: string, body: unknown): Promise<JsonResponse>;
  /** Starts the active shifts heartbeats go to, once per run. */
  startActiveShifts(): Promise<void>;
  activeShifts(): readonly ActiveShift[];
  /** The active shifts grouped by game server, in batches of at most HEARTBEAT_BATCH_SIZE: one body each. */
  batchBodies(): readonly string[];
}

export function createWorkload(ctx: WorkloadContext): Workload {
  const { baseUrl, plan, profile, contract, runTag } = ctx;
  const big = plan.big;
  const auth = { authorization: `Bearer ${big.key.secret}` };
  const activeStaff = big.staff.filter((s) => s.status === 'active');
  const heartbeatStaff = activeStaff.slice(0, Math.min(profile.heartbeatShifts, activeStaff.length - profile.connections * 2));
  const cycleStaff = activeStaff.slice(heartbeatStaff.length);
  let active: ActiveShift[] = [];
  let batches: string[] | null = null;
  const get = (path: string, headers: Readonly<Record<string, string>> = auth) => requestJson(baseUrl, { path, headers });
  const post = (path: string, key: string, body: unknown) =>
    requestJson(baseUrl, { method: 'POST', path, headers: { ...auth, 'idempotency-key': key }, body });
  const startBody = (staff: StaffPlan, index: number) => ({
    gameUserId: staff.gameUserId,
    universeId: UNIVERSE_ID,
    placeId: PLACE_ID,
    serverId: serverOf(index),
  });

  return {
    auth,
    heartbeatStaff,
    cycleStaff,
    async freeCycleStaff() {
      const pool = new Set(cycleStaff.map((staff) => staff.gameUserId));
      const busyShifts = async (): Promise<string[]> => {
        const busy: string[] = [];
        let cursor: ShiftCursor | null = null;
        do {
          const query: string = cursor === null ? '' : `&${new URLSearchParams({ ...cursor }).toString()}`;
          const page = await get(`${ACTIVE_SHIFTS}?limit=100${query}`);
          contract.check('free cycle staff (active shifts)', 'GET', ACTIVE_SHIFTS, page);
          const data = dataOf<ActiveShiftPage>(page);
          for (const shift of data.shifts) if (pool.has(shift.staff.gameUserId)) busy.push(shift.id);
          cursor = data.nextCursor;
        } while (cursor !== null);
        return busy;
      };
      // Requests of the phase that just ended may still be running on the server: a stop it was sent can end a
      // listed shift first (409 shift_not_active: already free), a start can begin one after the listing. So list
      // and stop again until a listing finds none.
      let stopped = 0;
      for (let pass = 1; ; pass += 1) {
        const busy = await busyShifts();
        if (busy.length === 0) {
          if (stopped > 0) ctx.log(`  stopped ${stopped} shifts left active by start/stop staff`);
          return;
        }
        if (pass > FREE_PASSES) fail('free cycle staff', `${busy.length} shifts still active after ${FREE_PASSES} passes`);
        await mapConcurrent(busy, profile.connections, async (id) => {
          const stop = await post(`/v1/activity/shifts/${id}/stop`, `${runTag}-free-${id}`, { reason: 'manual' });
          if (stop.status === 409 && stop.text.includes('"shift_not_active"')) return;
          contract.check('free cycle staff (stop)', 'POST', STOP_TEMPLATE, stop);
          stopped += 1;
        });
      }
    },
    chatHeaders: (staff) => ({ ...auth, 'x-chat-guild-id': big.guildId, 'x-acting-chat-user-id': staff.chatUserId }),
    startBody,
    get,
    post,
    async startActiveShifts() {
      if (active.length > 0) return;
      const started = performance.now();
      active = await mapConcurrent(heartbeatStaff, profile.connections, async (staff, i) => {
        const response = await post(START, `${runTag}-setup-start-${i}`, startBody(staff, i));
        contract.check('heartbeat setup (start)', 'POST', START, response);
        const id = dataOf<{ shift: { id: string } }>(response).shift.id;
        return { id, body: JSON.stringify({ serverId: serverOf(i) }) };
      });
      ctx.log(`  started ${active.length} active shifts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    },
    activeShifts: () => active,
    batchBodies() {
      if (batches !== null && active.length > 0) return batches;
      const byServer = new Map<string, string[]>();
      active.forEach((shift, i) => {
        const server = serverOf(i);
        byServer.set(server, [...(byServer.get(server) ?? []), shift.id]);
      });
      const bodies: string[] = [];
      for (const [serverId, ids] of byServer) {
        for (let at = 0; at < ids.length; at += HEARTBEAT_BATCH_SIZE) {
          bodies.push(JSON.stringify({ serverId, shiftIds: ids.slice(at, at + HEARTBEAT_BATCH_SIZE) }));
        }
      }
      batches = bodies;
      return bodies;
    },
  };
}

/** The mean number of shifts in the batch bodies. */
export function shiftsPerBatch(bodies: readonly string[]): number {
  if (bodies.length === 0) return 0;
  const total = bodies.reduce((sum, body) => sum + (JSON.parse(body) as { shiftIds: string[] }).shiftIds.length, 0);
  return Math.round((total / bodies.length) * 10) / 10;
}
