/**
 * The closed-loop write scenarios (heartbeats, batch heartbeats, start/stop cycles) and the cold leaderboard read
 * (right after a stop), each with its checked sample.
 */
import type { Scenario, ScenarioContext, ReadChecks } from './scenarios.ts';
import {
  dataOf,
  fail,
  HEARTBEAT_BATCH_SIZE,
  HEARTBEATS,
  LEADERBOARD,
  shiftsPerBatch,
  START,
  STOP_TEMPLATE,
  type Workload,
} from './workload.ts';

/** Cold week-leaderboard reads (each right after a stop) the cold-leaderboard scenario times, by profile. */
const COLD_READS = { quick: 20, full: 200 } as const;

const HEARTBEAT_TEMPLATE = '/v1/activity/shifts/{shiftId}/heartbeat';

type WriteScenarioName = 'heartbeat' | 'heartbeat-batch' | 'start-stop' | 'cold-leaderboard';

export function writeScenarios(
  ctx: ScenarioContext,
  workload: Workload,
  checks: ReadChecks,
): Record<WriteScenarioName, Scenario> & { readonly 'start-stop': Scenario } {
  const { contract, runTag } = ctx;
  const { auth, post, cycleStaff, startBody } = workload;
  let phase = 0;
  const nextPhase = () => {
    phase += 1;
    return phase;
  };
  const jsonHeaders = (key: string) => ({ ...auth, 'content-type': 'application/json', 'idempotency-key': key });

  const heartbeat: Scenario = {
    name: 'heartbeat',
    title: `POST /v1/activity/shifts/{id}/heartbeat (${workload.heartbeatStaff.length.toLocaleString('en-US')} active shifts in turn, unique keys)`,
    operation: { unit: 'heartbeat', requests: 1 },
    prepare: () => workload.startActiveShifts(),
    async check() {
      const shift = workload.activeShifts()[0];
      if (!shift) fail('heartbeat', 'no active shift to send heartbeats to');
      const key = `${runTag}-check-heartbeat-${nextPhase()}`;
      const path = `/v1/activity/shifts/${shift.id}/heartbeat`;
      const first = await post(path, key, JSON.parse(shift.body));
      contract.check('heartbeat', 'POST', HEARTBEAT_TEMPLATE, first);
      const data = dataOf<{ shift: { id: string; status: string } }>(first);
      if (data.shift.id !== shift.id || data.shift.status !== 'active') fail('heartbeat', 'answered for another shift');
      const replay = await post(path, key, JSON.parse(shift.body));
      contract.check('heartbeat (replay)', 'POST', HEARTBEAT_TEMPLATE, replay);
      if (replay.headers.get('idempotent-replayed') !== 'true') fail('heartbeat', 'a repeated key was not replayed');
    },
    requests() {
      const tag = `${runTag}-hb${nextPhase()}`;
      const shifts = workload.activeShifts();
      let n = 0;
      return [
        {
          method: 'POST',
          setupRequest(request) {
            const i = n;
            n += 1;
            const shift = shifts[i % shifts.length];
            if (!shift) return null;
            return { ...request, path: `/v1/activity/shifts/${shift.id}/heartbeat`, headers: jsonHeaders(`${tag}-${i}`), body: shift.body };
          },
        },
      ];
    },
  };

  const heartbeatBatch: Scenario = {
    name: 'heartbeat-batch',
    title: `POST /v1/activity/shifts/heartbeats (batches of up to ${HEARTBEAT_BATCH_SIZE} shifts of one server, unique keys)`,
    operation: { unit: 'batch', requests: 1, shifts: () => shiftsPerBatch(workload.batchBodies()) },
    prepare: () => workload.startActiveShifts(),
    async check() {
      const body = workload.batchBodies()[0];
      if (!body) fail('heartbeat-batch', 'no batch to send');
      const sent = JSON.parse(body) as { shiftIds: string[] };
      const key = `${runTag}-check-heartbeat-batch-${nextPhase()}`;
      const first = await post(HEARTBEATS, key, sent);
      contract.check('heartbeat-batch', 'POST', HEARTBEATS, first);
      const results = dataOf<{ results: { shiftId: string; shift?: { status: string } }[] }>(first).results;
      if (results.length !== sent.shiftIds.length) fail('heartbeat-batch', 'not one result per listed shift');
      results.forEach((result, i) => {
        if (result.shiftId !== sent.shiftIds[i] || result.shift?.status !== 'active') {
          fail('heartbeat-batch', `item ${i} was not applied: ${JSON.stringify(result)}`);
        }
      });
      const replay = await post(HEARTBEATS, key, sent);
      contract.check('heartbeat-batch (replay)', 'POST', HEARTBEATS, replay);
      if (replay.headers.get('idempotent-replayed') !== 'true') fail('heartbeat-batch', 'a repeated key was not replayed');
    },
    requests() {
      const tag = `${runTag}-hbb${nextPhase()}`;
      const batches = workload.batchBodies();
      let n = 0;
      return [
        {
          method: 'POST',
          path: HEARTBEATS,
          setupRequest(request) {
            const i = n;
            n += 1;
            const body = batches[i % batches.length];
            if (!body) return null;
            return { ...request, headers: jsonHeaders(`${tag}-${i}`), body };
          },
        },
      ];
    },
  };

  const startStop: Scenario = {
    name: 'start-stop',
    title: 'POST …/start then …/stop per connection (distinct staff, unique keys)',
    operation: { unit: 'cycle', requests: 2 },
    async check() {
      const staff = cycleStaff[0];
      if (!staff) fail('start-stop', 'no staff member left for start/stop cycles');
      await workload.freeCycleStaff();
      const n = nextPhase();
      const start = await post(START, `${runTag}-check-start-${n}`, startBody(staff, 0));
      contract.check('start-stop (start)', 'POST', START, start);
      const started = dataOf<{ shift: { id: string; status: string }; existing?: boolean }>(start);
      if (started.shift.status !== 'active' || started.existing === true) fail('start-stop', 'start did not start a new shift');
      const stop = await post(`/v1/activity/shifts/${started.shift.id}/stop`, `${runTag}-check-stop-${n}`, { reason: 'manual' });
      contract.check('start-stop (stop)', 'POST', STOP_TEMPLATE, stop);
      const stopped = dataOf<{ shift: { id: string; status: string; endReason: string } }>(stop);
      if (stopped.shift.id !== started.shift.id || stopped.shift.status !== 'completed' || stopped.shift.endReason !== 'manual') {
        fail('start-stop', 'stop did not complete the shift');
      }
    },
    requests() {
      const tag = `${runTag}-cyc${nextPhase()}`;
      let starts = 0;
      let stops = 0;
      return [
        {
          method: 'POST',
          path: START,
          setupRequest(request) {
            // A staff member comes round again only after every other one did: connections never share one.
            const i = starts;
            starts += 1;
            const staff = cycleStaff[i % cycleStaff.length];
            if (!staff) return null;
            return { ...request, headers: jsonHeaders(`${tag}-start-${i}`), body: JSON.stringify(startBody(staff, i)) };
          },
          onResponse(status, body, context) {
            if (status !== 200) return;
            context.shiftId = (JSON.parse(body) as { data: { shift: { id: string } } }).data.shift.id;
          },
        },
        {
          method: 'POST',
          setupRequest(request, context) {
            const id = context.shiftId;
            if (typeof id !== 'string') return null;
            const i = stops;
            stops += 1;
            return { ...request, path: `/v1/activity/shifts/${id}/stop`, headers: jsonHeaders(`${tag}-stop-${i}`), body: '{"reason":"manual"}' };
          },
        },
      ];
    },
  };

  let coldStaff = 0;
  /**
   * One cold read: a start and a stop (which moves the workspace's activity version), then page 1 of the week
   * leaderboard, checked; resolves with the leaderboard request's latency in ms.
   */
  async function coldRead(i: number): Promise<number> {
    // Staff from the far end of the cycle list, so start/stop cycles (which begin at its start) never meet them.
    coldStaff += 1;
    const staff = cycleStaff[cycleStaff.length - 1 - (coldStaff % Math.max(1, Math.floor(cycleStaff.length / 2)))];
    if (!staff) fail('cold-leaderboard', 'no staff member left for the cold reads');
    const start = await post(START, `${runTag}-cold-start-${i}-${coldStaff}`, startBody(staff, i));
    contract.check('cold-leaderboard (start)', 'POST', START, start);
    const id = dataOf<{ shift: { id: string } }>(start).shift.id;
    const stop = await post(`/v1/activity/shifts/${id}/stop`, `${runTag}-cold-stop-${i}-${coldStaff}`, { reason: 'manual' });
    contract.check('cold-leaderboard (stop)', 'POST', STOP_TEMPLATE, stop);
    const began = performance.now();
    const page = await workload.get(`${LEADERBOARD}?period=week`);
    const elapsed = performance.now() - began;
    contract.check('cold-leaderboard', 'GET', LEADERBOARD, page);
    checks.checkRanking('cold-leaderboard', dataOf(page), 0, Math.min(25, checks.activeCount));
    return elapsed;
  }
  const coldLeaderboard: Scenario = {
    name: 'cold-leaderboard',
    title: 'GET /v1/activity/leaderboard?period=week right after a start and stop (cold), one at a time',
    async check() {
      await coldRead(0);
    },
    requests: () => [],
    sequential: { count: COLD_READS[ctx.profile.name], one: (i) => coldRead(i + 1) },
  };

  return { heartbeat, 'heartbeat-batch': heartbeatBatch, 'start-stop': startStop, 'cold-leaderboard': coldLeaderboard };
}
