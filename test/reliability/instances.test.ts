/**
 * Several instances (PostgreSQL only): three real `serve` processes on one PostgreSQL schema, under concurrent
 * load spread over all three.
 * 1. One Idempotency-Key sent to every instance at once (start, accept): exactly one effect; the other answers
 *    replay it or are refused with 409 `idempotency_request_in_progress`.
 * 2. Concurrent starts for one staff member with different keys: one active shift, and every answer names it.
 * 3. Accept racing reject on one submission: exactly one winner, the others 422.
 * 4. The heartbeat-timeout sweep, run by all three instances: every silent shift is completed exactly once, with
 *    `heartbeat_timeout` and `endedAt` = its `lastHeartbeatAt`. A trigger added to the test schema logs each
 *    active -> completed transition with the application_name of the instance that made it.
 * Figures go to test/reliability/.results/instances.json.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNIVERSE_ID } from '../helpers/fixtures.js';
import { POSTGRES_URL } from '../helpers/postgres.js';
import { createTestDatabase, postgresAvailable, type TestDatabase } from '../helpers/stores.js';
import { allViolations } from './invariants.js';
import {
  jsonRequest,
  killAll,
  seedLoadWorld,
  send,
  sleep,
  startGateway,
  writeFigures,
  type DecisionBody,
  type Gateway,
  type LoadWorld,
  type ShiftBody,
  type WireRequest,
  type WireResponse,
} from './serving.js';

const INSTANCES = 3;
const PER_INSTANCE = 10;
const TRIALS = 3;
const RACE_SUBMISSIONS = 5;
const SWEEP_SHIFTS = 20;
const SWEEP_BATCHES = 4;
const BATCH_RACE_SHIFTS = 10;
/** Small, for the sweep; large enough that parts 1-3 finish well within it. */
const SHIFT_TIMEOUT_SECONDS = 3;
/** sweepIntervalMs(3): max(1 s, min(timeout / 5, 30 s)). */
const SWEEP_INTERVAL_MS = 1000;

if (!postgresAvailable) {
  console.error(
    [
      '',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      `!!  PostgreSQL is not reachable at ${POSTGRES_URL}`,
      '!!  test/reliability/instances.test.ts (several gateway instances) is SKIPPED.',
      '!!  Set TEST_DATABASE_URL or start a server to run it.',
      '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      '',
    ].join('\n'),
  );
}

const newKey = (label: string) => `inst-${label}-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
const errorCode = (r: WireResponse) => (r.body as { error?: { code?: string } } | null)?.error?.code;
const tally = (values: readonly string[]) =>
  values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

/** How an answer to a request sharing its key with others was settled. */
function sameKeyOutcome(r: WireResponse): 'applied' | 'replayed' | 'in_progress' | string {
  if (r.status === 200) return r.replayed ? 'replayed' : 'applied';
  if (r.status === 409 && errorCode(r) === 'idempotency_request_in_progress') return 'in_progress';
  return `${r.status} ${String(errorCode(r))}`;
}

describe.runIf(postgresAvailable)('several instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let world: LoadWorld;
  let schema: string;
  const gateways: Gateway[] = [];
  let requests = 0;
  let staffCursor = 0;
  let submissionCursor = 0;
  const figures: Record<string, unknown> = {};

  /** Sends the requests at once, request i to instance i mod 3. */
  async function fanOut(list: readonly WireRequest[]): Promise<WireResponse[]> {
    requests += list.length;
    return Promise.all(list.map((request, i) => send((gateways[i % gateways.length] as Gateway).baseUrl, request)));
  }

  async function query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      return (await client.query<T>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  const nextStaff = () => {
    const staff = world.staff[staffCursor];
    staffCursor += 1;
    if (!staff) throw new Error('not enough staff seeded');
    return staff;
  };
  const nextSubmission = () => {
    const submission = world.submissions[submissionCursor];
    submissionCursor += 1;
    if (!submission) throw new Error('not enough submissions seeded');
    return submission;
  };
  const startBody = (gameUserId: string, serverId: string) => ({
    gameUserId,
    universeId: UNIVERSE_ID,
    placeId: '7',
    serverId,
    startedAt: new Date().toISOString(),
  });

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    world = await seedLoadWorld(database, { extraStaff: 80, submissions: 20 });
    schema = /search_path=(\w+)/.exec(new URL(database.url).searchParams.get('options') ?? '')?.[1] ?? '';
    expect(schema).toMatch(/^t_/);
    await query(`
      create table ${schema}.shift_completions (
        shift_id text not null, by_instance text not null, end_reason text, at timestamptz not null default clock_timestamp());
      create function ${schema}.log_shift_completion() returns trigger language plpgsql as $$
      begin
        insert into ${schema}.shift_completions (shift_id, by_instance, end_reason)
        values (new.id, current_setting('application_name'), new.end_reason);
        return new;
      end $$;
      create trigger shifts_completion after update on ${schema}.shifts for each row
        when (old.status = 'active' and new.status = 'completed') execute function ${schema}.log_shift_completion();
    `);
    const started = await Promise.all(
      Array.from({ length: INSTANCES }, (_, i) => {
        const url = new URL(database.url);
        url.searchParams.set('application_name', `gateway-${i + 1}`);
        return startGateway({
          name: `gateway-${i + 1}`,
          databaseUrl: url.toString(),
          env: { SHIFT_TIMEOUT_SECONDS: String(SHIFT_TIMEOUT_SECONDS), RATE_LIMIT_MAX: '0', LOG_LEVEL: 'silent' },
        });
      }),
    );
    gateways.push(...started);
  });

  afterAll(async () => {
    const exitCodes = await Promise.all(gateways.map((g) => g.stop().catch(() => null)));
    await killAll();
    if (database) await database.drop().catch(() => undefined);
    writeFigures('instances', {
      instances: INSTANCES,
      shiftTimeoutSeconds: SHIFT_TIMEOUT_SECONDS,
      requests,
      ...figures,
      exitCodes,
      recordedAt: new Date().toISOString(),
    });
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
    const answers = await fanOut(race);
    // A single stop that loses to the server stop is refused: the shift is no longer active.
    const settled = answers.map((a, i) => (a.status === 409 && i >= 3 && i < 6 ? errorCode(a) : a.status));
    expect(settled.every((s) => s === 200 || s === 'shift_not_active'), JSON.stringify(settled)).toBe(true);
    for (const answer of [answers[0], answers[2], answers[answers.length - 1]]) {
      const results = (answer?.body as { data: { results: { shift?: unknown; error?: { code: string } }[] } }).data.results;
      expect(results.map((r) => (r.shift ? 'applied' : r.error?.code)).every((c) => c === 'applied' || c === 'shift_not_active')).toBe(true);
    }
    const byServer = (answers[1]?.body as { data: { shifts: { id: string }[] } }).data.shifts.map((s) => s.id);
    const bySingle = answers.slice(3, 6).filter((a) => a.status === 200).length;
    // Every shift ended exactly once, and as its answer says: by the server stop, a single stop, or (on a machine
    // slow enough for SHIFT_TIMEOUT_SECONDS to pass meanwhile) the timeout, which the server stop does not list.
    const log = await query<{ shift_id: string; end_reason: string }>(
      `select shift_id, end_reason from ${schema}.shift_completions where shift_id = any($1)`,
      [shiftIds],
    );
    expect(Object.values(tally(log.map((l) => l.shift_id)))).toEqual(shiftIds.map(() => 1));
    const reasons = tally(log.map((l) => l.end_reason));
    expect(reasons.server_shutdown ?? 0).toBe(byServer.length);
    expect(reasons.manual ?? 0).toBe(bySingle);
    expect(byServer.length + bySingle + (reasons.heartbeat_timeout ?? 0)).toBe(BATCH_RACE_SHIFTS);
  });

  it(
    'the timeout sweep on three instances completes every silent shift exactly once, at its last heartbeat',
    async () => {
      const began = Date.now();
      const shiftIds: string[] = [];
      const perBatch = SWEEP_SHIFTS / SWEEP_BATCHES;
      // Batches spread over more than one sweep interval, so that different instances' sweeps find them.
      for (let batch = 0; batch < SWEEP_BATCHES; batch += 1) {
        const list = Array.from({ length: perBatch }, () => {
          const staff = nextStaff();
          return jsonRequest('POST', '/v1/activity/shifts/start', world.apiKey, startBody(staff.gameUserId, 'srv-sweep'), newKey('sweep'));
        });
        const answers = await fanOut(list);
        expect(answers.map((a) => a.status)).toEqual(list.map(() => 200));
        shiftIds.push(...answers.map((a) => (a.body as ShiftBody).data.shift.id));
        await sleep(SWEEP_INTERVAL_MS * 0.6);
      }
      const lastStart = Date.now();
      // No heartbeats and no reads from here on: only the sweeps may complete these shifts.
      const deadline = lastStart + SHIFT_TIMEOUT_SECONDS * 1000 + 3 * SWEEP_INTERVAL_MS + 3000;
      type Row = { id: string; status: string; ended_at: number | string | null; last_heartbeat_at: number | string; end_reason: string | null };
      let rows: Row[] = [];
      while (Date.now() < deadline) {
        rows = await query<Row>(
          `select id, status, ended_at, last_heartbeat_at, end_reason from ${schema}.shifts where id = any($1)`,
          [shiftIds],
        );
        if (rows.length === SWEEP_SHIFTS && rows.every((r) => r.status === 'completed')) break;
        await sleep(200);
      }
      const waitedMs = Date.now() - lastStart;
      expect(rows).toHaveLength(SWEEP_SHIFTS);
      for (const row of rows) {
        expect(row).toMatchObject({ status: 'completed', end_reason: 'heartbeat_timeout' });
        expect(Number(row.ended_at)).toBe(Number(row.last_heartbeat_at));
      }
      const log = await query<{ shift_id: string; by_instance: string; end_reason: string; early_ms: string }>(
        `select c.shift_id, c.by_instance, c.end_reason,
                (s.last_seen_at + ${SHIFT_TIMEOUT_SECONDS * 1000}) - floor(extract(epoch from c.at) * 1000) as early_ms
           from ${schema}.shift_completions c join ${schema}.shifts s on s.id = c.shift_id
          where c.shift_id = any($1)`,
        [shiftIds],
      );
      // Not before the timeout (same host clock for the gateways and PostgreSQL; 50 ms of slack).
      expect(log.filter((l) => Number(l.early_ms) > 50)).toEqual([]);
      const perShift = tally(log.map((l) => l.shift_id));
      expect(Object.keys(perShift).sort()).toEqual([...shiftIds].sort());
      expect(Object.values(perShift).every((n) => n === 1)).toBe(true);
      expect(log.every((l) => l.end_reason === 'heartbeat_timeout' && /^gateway-[1-3]$/.test(l.by_instance))).toBe(true);

      // Every shift of this file (parts 1-2 included) ended exactly once; none is half applied.
      const all = await query<{ shift_id: string; n: string }>(
        `select shift_id, count(*) as n from ${schema}.shift_completions group by shift_id having count(*) > 1`,
      );
      expect(all).toEqual([]);
      const store = database.open();
      try {
        expect(await allViolations(store.db)).toEqual([]);
      } finally {
        await store.close();
      }
      for (const gateway of gateways) {
        expect(gateway.exited(), gateway.output()).toBe(false);
      }
      figures.sweep = {
        shifts: SWEEP_SHIFTS,
        batches: SWEEP_BATCHES,
        completedExactlyOnce: Object.values(perShift).filter((n) => n === 1).length,
        completedByInstance: tally(log.map((l) => l.by_instance)),
        waitedAfterLastStartMs: waitedMs,
        durationMs: Date.now() - began,
      };
    },
    30_000,
  );
});

if (!postgresAvailable) {
  describe('several instances on one PostgreSQL database', () => {
    it.skip(`needs PostgreSQL (none answers at ${POSTGRES_URL})`, () => undefined);
  });
}
