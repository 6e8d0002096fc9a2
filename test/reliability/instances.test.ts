/**
 * Several instances (PostgreSQL only): three real `serve` processes on one PostgreSQL schema, under concurrent
 * load spread over all three.
 * 1. One Idempotency-Key sent to every instance at once (start, accept): exactly one effect; the other answers
 *    replay it or are refused with 409 `idempotency_request_in_progress`.
 * 2. Concurrent starts for one staff member with different keys: one active shift, and every answer names it.
 * 3. Accept racing reject on one submission: exactly one winner, the others 422.
 * 4. Batch heartbeats racing a server stop and single stops: every shift stopped exactly once.
 * The heartbeat timeout is long here, so that no shift times out however slow the machine; the timeout sweep run by
 * several instances has its own file (instances-sweep.test.ts). Figures go to test/reliability/.results/instances.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL } from '../helpers/postgres.ts';
import { postgresAvailable } from '../helpers/stores.ts';
import { newKey, startCluster, tally, type Cluster } from './cluster.ts';
import { jsonRequest, writeFigures, type DecisionBody, type LoadWorld, type ShiftBody, type WireRequest, type WireResponse } from './serving.ts';

const INSTANCES = 3;
const PER_INSTANCE = 10;
const TRIALS = 3;
const RACE_SUBMISSIONS = 5;
const BATCH_RACE_SHIFTS = 10;
/** Far longer than the file takes: no shift of these tests may end by timing out. */
const SHIFT_TIMEOUT_SECONDS = 600;
/**
 * PostgreSQL breaks a deadlock only after this wait, and the gateway runs the aborted transaction again, so a
 * deadlock shows as an answer this slow (the default, 1 s, could pass for a slow machine).
 */
const DEADLOCK_TIMEOUT_MS = 10_000;

const errorCode = (r: WireResponse) => (r.body as { error?: { code?: string } } | null)?.error?.code;

/** How an answer to a request sharing its key with others was settled. */
function sameKeyOutcome(r: WireResponse): 'applied' | 'replayed' | 'in_progress' | string {
  if (r.status === 200) return r.replayed ? 'replayed' : 'applied';
  if (r.status === 409 && errorCode(r) === 'idempotency_request_in_progress') return 'in_progress';
  return `${r.status} ${String(errorCode(r))}`;
}

describe.runIf(postgresAvailable)('several instances on one PostgreSQL database', () => {
  let cluster: Cluster;
  let world: LoadWorld;
  let schema: string;
  const figures: Record<string, unknown> = {};
  const fanOut = (list: readonly WireRequest[]) => cluster.fanOut(list);
  const query: Cluster['query'] = (text, values) => cluster.query(text, values);
  const nextStaff = () => cluster.nextStaff();
  const nextSubmission = () => cluster.nextSubmission();
  const startBody = (gameUserId: string, serverId: string) => cluster.startBody(gameUserId, serverId);

  beforeAll(async () => {
    cluster = await startCluster({ instances: INSTANCES, shiftTimeoutSeconds: SHIFT_TIMEOUT_SECONDS, extraStaff: 60, submissions: 20,
      sessionSettings: { deadlock_timeout: `${DEADLOCK_TIMEOUT_MS}ms` },
    });
    world = cluster.world;
    schema = cluster.schema;
  });

  afterAll(async () => {
    if (!cluster) return;
    const requests = cluster.requests();
    const exitCodes = await cluster.stop();
    writeFigures('instances', { instances: INSTANCES, shiftTimeoutSeconds: SHIFT_TIMEOUT_SECONDS, requests, ...figures, exitCodes, recordedAt: new Date().toISOString() });
  });

  it('one Idempotency-Key sent to every instance at once (start): one shift, the rest replay or are in progress', async () => {
    const trials = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const staff = nextStaff();
      const key = newKey('start');
      const body = startBody(staff.gameUserId, `srv-same-key-${trial}`);
      const request = jsonRequest('POST', '/v1/activity/shifts/start', world.apiKey, body, key);
      const answers = await fanOut(Array.from({ length: INSTANCES * PER_INSTANCE }, () => request));
      const outcomes = answers.map(sameKeyOutcome);
      expect(outcomes.filter((o) => !['applied', 'replayed', 'in_progress'].includes(o))).toEqual([]);
      expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
      const bodies = answers.filter((a) => a.status === 200).map((a) => a.body);
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      const rows = await query<{ id: string }>(`select id from ${schema}.shifts where staff_id = $1`, [staff.id]);
      expect(rows).toHaveLength(1);
      const shift = (answers.find((a) => a.status === 200)?.body as ShiftBody).data;
      expect(rows[0]?.id).toBe(shift.shift.id);
      expect(shift.existing).toBe(false);
      // Once settled, every instance replays it.
      for (const replay of await fanOut([request, request, request])) {
        expect(replay.replayed).toBe(true);
        expect(replay.body).toEqual(bodies[0]);
      }
      trials.push({ requests: answers.length, ...tally(outcomes), shiftRows: rows.length });
    }
    figures.sameKeyStart = { trials };
  });

  it('one Idempotency-Key sent to every instance at once (accept): one command, one event, one staff profile', async () => {
    const trials = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const submission = nextSubmission();
      const key = newKey('accept');
      const request = jsonRequest(
        'POST',
        `/v1/applications/submissions/${submission.id}/accept`,
        world.token,
        { reviewNote: 'welcome', createStaffProfile: true },
        key,
      );
      const answers = await fanOut(Array.from({ length: INSTANCES * PER_INSTANCE }, () => request));
      const outcomes = answers.map(sameKeyOutcome);
      expect(outcomes.filter((o) => !['applied', 'replayed', 'in_progress'].includes(o))).toEqual([]);
      expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1);
      const bodies = answers.filter((a) => a.status === 200).map((a) => a.body);
      for (const body of bodies) expect(body).toEqual(bodies[0]);
      const data = (answers.find((a) => a.status === 200)?.body as DecisionBody).data;
      const commands = await query<{ id: string; idempotency_key: string }>(
        `select id, idempotency_key from ${schema}.commands where submission_id = $1`,
        [submission.id],
      );
      expect(commands).toEqual([{ id: data.commandId, idempotency_key: key }]);
      const events = await query<{ id: string }>(`select id from ${schema}.events where command_id = $1`, [data.commandId]);
      expect(events).toEqual([{ id: data.eventId }]);
      const staffRows = await query(`select id from ${schema}.staff where game_user_id = $1`, [submission.applicant.gameUserId]);
      expect(staffRows).toHaveLength(1);
      const [row] = await query<{ status: string }>(`select status from ${schema}.submissions where id = $1`, [submission.id]);
      expect(row?.status).toBe('accepted');
      trials.push({ requests: answers.length, ...tally(outcomes), commandRows: commands.length, eventRows: events.length });
    }
    figures.sameKeyAccept = { trials };
  });

  it('concurrent starts for one staff member with different keys: one active shift, named by every answer', async () => {
    const trials = [];
    for (let trial = 0; trial < TRIALS; trial += 1) {
      const staff = nextStaff();
      const body = startBody(staff.gameUserId, `srv-race-${trial}`);
      const answers = await fanOut(
        Array.from({ length: INSTANCES * PER_INSTANCE }, () =>
          jsonRequest('POST', '/v1/activity/shifts/start', world.apiKey, body, newKey('race-start')),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const data = answers.map((a) => (a.body as ShiftBody).data);
      const ids = new Set(data.map((d) => d.shift.id));
      expect(ids.size).toBe(1);
      expect(data.filter((d) => d.existing === false)).toHaveLength(1);
      const rows = await query<{ id: string; status: string }>(
        `select id, status from ${schema}.shifts where staff_id = $1`,
        [staff.id],
      );
      expect(rows).toEqual([{ id: [...ids][0], status: 'active' }]);
      trials.push({ requests: answers.length, distinctShiftIds: ids.size, created: 1, existing: answers.length - 1, shiftRows: rows.length });
    }
    figures.concurrentStarts = { trials };
  });

  it('accept racing reject on one submission across instances: exactly one winner, the others 422', async () => {
    const trials = [];
    for (let trial = 0; trial < RACE_SUBMISSIONS; trial += 1) {
      const submission = nextSubmission();
      const list = Array.from({ length: INSTANCES * PER_INSTANCE }, (_, i) => {
        const operation = i % 2 === 0 ? 'accept' : 'reject';
        return jsonRequest(
          'POST',
          `/v1/applications/submissions/${submission.id}/${operation}`,
          world.token,
          { reviewNote: `race ${i}` },
          newKey(`race-${operation}`),
        );
      });
      const answers = await fanOut(list);
      const winners = answers.flatMap((a, i) => (a.status === 200 ? [i] : []));
      expect(winners).toHaveLength(1);
      const losers = answers.filter((a) => a.status !== 200);
      expect(losers.map((a) => `${a.status} ${String(errorCode(a))}`)).toEqual(losers.map(() => '422 submission_finalized'));
      const winner = answers[winners[0] as number] as WireResponse;
      const data = (winner.body as DecisionBody).data;
      const [row] = await query<{ status: string }>(`select status from ${schema}.submissions where id = $1`, [submission.id]);
      expect(row?.status).toBe(data.status);
      const commands = await query<{ id: string }>(`select id from ${schema}.commands where submission_id = $1`, [submission.id]);
      expect(commands).toEqual([{ id: data.commandId }]);
      const events = await query<{ id: string }>(`select id from ${schema}.events where command_id = $1`, [data.commandId]);
      expect(events).toEqual([{ id: data.eventId }]);
      trials.push({
        requests: answers.length,
        winner: data.status,
        winnerInstance: `gateway-${((winners[0] as number) % INSTANCES) + 1}`,
        refused422: losers.length,
      });
    }
    figures.acceptVsReject = {
      trials,
      winners: RACE_SUBMISSIONS,
      acceptWins: trials.filter((t) => t.winner === 'accepted').length,
      rejectWins: trials.filter((t) => t.winner === 'rejected').length,
    };
  });

  it('batch heartbeats, a server stop and single stops across instances: every shift stopped exactly once', async () => {
    const serverId = 'srv-batch-race';
    const starts = Array.from({ length: BATCH_RACE_SHIFTS }, () =>
      jsonRequest('POST', '/v1/activity/shifts/start', world.apiKey, startBody(nextStaff().gameUserId, serverId), newKey('bstart')),
    );
    const started = await fanOut(starts);
    expect(started.map((a) => a.status)).toEqual(starts.map(() => 200));
    const shiftIds = started.map((a) => (a.body as ShiftBody).data.shift.id);
    const batch = () => jsonRequest('POST', '/v1/activity/shifts/heartbeats', world.apiKey, { serverId, shiftIds }, newKey('batch'));
    const race = [
      batch(),
      jsonRequest('POST', `/v1/activity/servers/${serverId}/stop`, world.apiKey, {}, newKey('srvstop')),
      batch(),
      ...shiftIds.slice(0, 3).map((id) => jsonRequest('POST', `/v1/activity/shifts/${id}/stop`, world.apiKey, {}, newKey('stop'))),
      batch(),
    ];
    const raceBegan = Date.now();
    const answers = await fanOut(race);
    // Locks are taken in one order (shift rows by id, then the workspace's row), so nothing waits for a deadlock.
    const raceMs = Date.now() - raceBegan;
    expect(raceMs).toBeLessThan(DEADLOCK_TIMEOUT_MS / 2);
    // A single stop that loses to the server stop is refused: the shift is no longer active.
    const settled = answers.map((a, i) => (a.status === 409 && i >= 3 && i < 6 ? errorCode(a) : a.status));
    expect(settled.every((s) => s === 200 || s === 'shift_not_active'), JSON.stringify(settled)).toBe(true);
    for (const answer of [answers[0], answers[2], answers[answers.length - 1]]) {
      const results = (answer?.body as { data: { results: { shift?: unknown; error?: { code: string } }[] } }).data.results;
      expect(results.map((r) => (r.shift ? 'applied' : r.error?.code)).every((c) => c === 'applied' || c === 'shift_not_active')).toBe(true);
    }
    const byServer = (answers[1]?.body as { data: { shifts: { id: string }[] } }).data.shifts.map((s) => s.id);
    const bySingle = answers.slice(3, 6).filter((a) => a.status === 200).length;
    // Every shift ended exactly once, and as its answer says: by the server stop or by a single stop.
    const log = await query<{ shift_id: string; end_reason: string }>(
      `select shift_id, end_reason from ${schema}.shift_completions where shift_id = any($1)`,
      [shiftIds],
    );
    expect(Object.values(tally(log.map((l) => l.shift_id)))).toEqual(shiftIds.map(() => 1));
    const reasons = tally(log.map((l) => l.end_reason));
    expect(reasons).toEqual({ ...(byServer.length > 0 ? { server_shutdown: byServer.length } : {}), ...(bySingle > 0 ? { manual: bySingle } : {}) });
    expect(byServer.length + bySingle).toBe(BATCH_RACE_SHIFTS);
    const rows = await query<{ id: string; status: string }>(`select id, status from ${schema}.shifts where id = any($1)`, [shiftIds]);
    expect(rows.map((r) => r.status)).toEqual(shiftIds.map(() => 'completed'));
    figures.batchRace = { shifts: BATCH_RACE_SHIFTS, byServerStop: byServer.length, bySingleStop: bySingle, raceMs };
  });
});

if (!postgresAvailable) {
  describe('several instances on one PostgreSQL database', () => {
    it.skip(`needs PostgreSQL (none answers at ${POSTGRES_URL})`, () => undefined);
  });
}
