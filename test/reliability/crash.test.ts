/**
 * Crash tests (both stores): a real `serve` process under concurrent writes over HTTP is killed with SIGKILL a
 * random 100-600 ms into the load, restarted on the same database, and checked:
 * - every acknowledged (2xx) write is there: starts exist, heartbeats are reflected, stops and decisions have the
 *   acknowledged outcome;
 * - nothing is half applied (the database, read directly): shifts are fully active or fully completed, at most one
 *   active per staff member, and every submission's commands and events pair up with its state;
 * - the idempotency records agree with the effects: every answered request replays its status and body with
 *   `Idempotent-Replayed: true`; a request in flight at the kill replays a stored result or is applied once now,
 *   and a second replay returns that result (counts show nothing applied twice).
 * Keys in flight at the kill must be free after the restart on both stores: SQLite keeps them in the killed
 * process, PostgreSQL in transaction-scoped advisory locks the database releases with the dead session. A 409
 * `idempotency_request_in_progress` is retried for up to 2 s (the database may take a moment to notice the
 * session is gone); one that persists fails the test, as does any `in_progress` record left behind.
 * One more round sends SIGTERM instead: the process must answer what it took in, close its connections and exit
 * 0 within 5 s (a request in flight at the signal used to hold its keep-alive connection, and the shutdown, open
 * until the client let go); the same checks follow the restart.
 * The load is in crash-load.ts. Figures go to test/reliability/.results/crash-<store>.json.
 */
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/db/connect.ts';
import { createTestDatabase, STORE_KINDS, type StoreKind, type TestDatabase } from '../helpers/stores.ts';
import { finalOutcome, isAck, Load, mapLimit, SHIFT_KINDS, warmUp, type Sent } from './crash-load.ts';
import { allViolations } from './invariants.ts';
import {
  jsonRequest,
  killAll,
  seedLoadWorld,
  send,
  startGateway,
  writeFigures,
  type DecisionBody,
  type Gateway,
  type LoadWorld,
  type ShiftBody,
  type WireResponse,
} from './serving.ts';

const ROUNDS = 3;
const EXTRA_STAFF = 38; // with alice and bob: 40 staff members starting shifts
const SUBMISSIONS = 12;
// A warmed process answers a write every few ms here (one process, 2 CPUs shared with the load): up to 600 ms
// lets some hundred writes through before the kill.
const KILL_AFTER_MS: readonly [number, number] = [100, 600];
const ROUND_TIMEOUT_MS = 40_000;
const SERVER_ENV = { SHIFT_TIMEOUT_SECONDS: '3600', RATE_LIMIT_MAX: '0', LOG_LEVEL: 'silent' };

function allowedStatuses(s: Sent): number[] {
  return s.racing ? [200, 422] : [200];
}

interface RoundFigures {
  round: number;
  signal: 'SIGKILL' | 'SIGTERM';
  /** SIGTERM: from the signal to the exit. */
  shutdownMs?: number;
  killAfterMs: number;
  loadFinishedBeforeKill: boolean;
  requestsSent: number;
  answeredBeforeKill: number;
  acknowledged: number;
  acknowledgedFound: number;
  acknowledgedByKind: Record<string, number>;
  refusedAsExpected: number;
  inFlightAtKill: number;
  inFlightReplayedStored: number;
  inFlightAppliedOnReplay: number;
  /** 409 in-progress answers retried after the restart (the database noticing the dead session). */
  busyRetries: number;
  replaysChecked: number;
  phases: Record<string, number>;
  durationMs: number;
}

interface EffectCheck {
  checked: number;
  problems: string[];
}

interface ShiftView {
  id: string;
  status: string;
  startedAt: string;
  lastHeartbeatAt: string;
  endedAt?: string;
  durationSeconds?: number;
  minutes?: number;
  endReason?: string;
  staff: { id: string };
}

/** Checks the effect of each acknowledged write against what the restarted server (and the database) shows. */
async function checkEffects(baseUrl: string, world: LoadWorld, store: Store, writes: readonly Sent[]): Promise<EffectCheck> {
  const problems: string[] = [];
  let checked = 0;
  const shiftWrites = writes.filter((w) => SHIFT_KINDS.includes(w.kind));
  const shiftIds = [...new Set(shiftWrites.map((w) => (finalOutcome(w)?.body as ShiftBody).data.shift.id))];
  const shifts = new Map<string, ShiftView | undefined>();
  await mapLimit(shiftIds, 16, async (id) => {
    const res = await send(baseUrl, jsonRequest('GET', `/v1/activity/shifts/${id}`, world.apiKey, undefined));
    shifts.set(id, res.status === 200 ? (res.body as { data: { shift: ShiftView } }).data.shift : undefined);
  });
  for (const write of shiftWrites) {
    const acked = (finalOutcome(write)?.body as ShiftBody).data.shift;
    const seen = shifts.get(acked.id);
    const where = `${write.kind} ${write.key} (shift ${acked.id})`;
    if (!seen) {
      problems.push(`${where}: shift not found after the restart`);
      continue;
    }
    const ok =
      write.kind === 'start'
        ? seen.staff.id === write.subject && seen.startedAt === acked.startedAt
        : write.kind === 'heartbeat'
          ? Date.parse(seen.lastHeartbeatAt) >= Date.parse(acked.lastHeartbeatAt ?? '')
          : seen.status === 'completed' &&
            seen.endedAt === acked.endedAt &&
            seen.durationSeconds === acked.durationSeconds &&
            seen.minutes === acked.minutes &&
            seen.endReason === acked.endReason;
    if (ok) checked += 1;
    else problems.push(`${where}: acknowledged ${JSON.stringify(acked)} but found ${JSON.stringify(seen)}`);
  }

  const decisions = writes.filter((w) => !SHIFT_KINDS.includes(w.kind));
  const [submissions, commands, events] = await Promise.all([
    store.db.selectFrom('submissions').select(['id', 'status', 'score']).execute(),
    store.db.selectFrom('commands').select(['id', 'submission_id', 'idempotency_key']).execute(),
    store.db.selectFrom('events').select(['id', 'command_id']).execute(),
  ]);
  const submissionById = new Map(submissions.map((s) => [s.id, s]));
  const commandById = new Map(commands.map((c) => [c.id, c]));
  const eventById = new Map(events.map((e) => [e.id, e]));
  for (const write of decisions) {
    const data = (finalOutcome(write)?.body as DecisionBody).data;
    const submission = submissionById.get(write.subject);
    const command = commandById.get(data.commandId);
    const event = eventById.get(data.eventId);
    const statusOk =
      write.kind === 'mark'
        ? ['under_review', 'accepted', 'rejected'].includes(submission?.status ?? '')
        : write.kind === 'review'
          ? submission?.score === JSON.parse(write.request.body ?? '{}').score
          : submission?.status === (write.kind === 'accept' ? 'accepted' : 'rejected');
    if (
      statusOk &&
      command?.submission_id === write.subject &&
      command.idempotency_key === write.key &&
      event?.command_id === command.id
    ) {
      checked += 1;
    } else {
      problems.push(
        `${write.kind} ${write.key}: acknowledged ${JSON.stringify(data)} but found submission ` +
          `${JSON.stringify(submission)}, command ${JSON.stringify(command)}, event ${JSON.stringify(event)}`,
      );
    }
  }
  return { checked, problems };
}

/** Replays `s` as sent and expects the stored answer. */
async function expectReplay(baseUrl: string, s: Sent, expected: WireResponse, problems: string[]): Promise<void> {
  const replay = await send(baseUrl, s.request);
  if (replay.status !== expected.status || !replay.replayed || !isDeepStrictEqual(replay.body, expected.body)) {
    problems.push(
      `${s.kind} ${s.key}: expected a replay of ${expected.status} ${JSON.stringify(expected.body)}, got ` +
        `${replay.status} (replayed: ${String(replay.replayed)}) ${JSON.stringify(replay.body)}`,
    );
  }
}

/** Counts: one shift per successful start, one command per successful decision, and nothing else. */
async function countViolations(store: Store, world: LoadWorld, sent: readonly Sent[]): Promise<string[]> {
  const problems: string[] = [];
  const shifts = await store.db.selectFrom('shifts').select(['id', 'staff_id']).execute();
  for (const staff of world.staff) {
    const starts = sent.filter((s) => s.kind === 'start' && s.subject === staff.id && finalOutcome(s)?.status === 200);
    const started = starts.map((s) => (finalOutcome(s)?.body as ShiftBody).data);
    const rows = shifts.filter((row) => row.staff_id === staff.id).map((row) => row.id);
    const ids = new Set(started.map((d) => d.shift.id));
    if (started.some((d) => d.existing !== false)) problems.push(`staff ${staff.id}: a start returned an existing shift`);
    if (ids.size !== started.length || rows.length !== ids.size || !rows.every((id) => ids.has(id))) {
      problems.push(`staff ${staff.id}: ${started.length} successful starts (${ids.size} ids) but shift rows ${JSON.stringify(rows)}`);
    }
  }
  const commands = await store.db.selectFrom('commands').select(['submission_id', 'idempotency_key']).execute();
  for (const submission of world.submissions) {
    const applied = sent
      .filter((s) => s.subject === submission.id && finalOutcome(s)?.status === 200)
      .map((s) => s.key)
      .sort();
    const recorded = commands
      .filter((c) => c.submission_id === submission.id)
      .map((c) => c.idempotency_key ?? '')
      .sort();
    if (JSON.stringify(applied) !== JSON.stringify(recorded)) {
      problems.push(`submission ${submission.id}: successful keys ${JSON.stringify(applied)}, commands ${JSON.stringify(recorded)}`);
    }
  }
  return problems;
}

/**
 * One round: load, then SIGKILL (a crash) or SIGTERM (a graceful shutdown, which must exit 0 promptly and answer
 * every request it took in) a random moment into it; restart on the same database and check everything.
 */
async function crashRound(
  kind: StoreKind,
  round: number,
  signal: 'SIGKILL' | 'SIGTERM',
  track: (db: TestDatabase) => void,
): Promise<RoundFigures> {
  const began = Date.now();
  const phases: Record<string, number> = {};
  let mark = began;
  const phase = (name: string) => {
    phases[name] = Date.now() - mark;
    mark = Date.now();
  };
  const database = await createTestDatabase(kind);
  track(database);
  const world = await seedLoadWorld(database, { extraStaff: EXTRA_STAFF, submissions: SUBMISSIONS });
  const first: Gateway = await startGateway({ name: `${kind}-round${round}-a`, databaseUrl: database.url, env: SERVER_ENV });
  phase('seedMs');
  await warmUp(first.baseUrl, world);
  phase('startMs');

  // The load, and the kill a random moment into it.
  const load = new Load(first.baseUrl, world);
  const killAfterMs = KILL_AFTER_MS[0] + Math.floor(Math.random() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]));
  let loadDone = false;
  // Interleaved, so that shift writes and decisions are both under way from the first moment.
  const chains = Promise.all(
    world.staff.flatMap((_, i) => [load.staffChain(i), ...(i < world.submissions.length ? [load.submissionChain(i)] : [])]),
  ).finally(() => {
    loadDone = true;
  });
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  const loadFinishedBeforeKill = loadDone;
  load.killed = true;
  let shutdownMs: number | undefined;
  if (signal === 'SIGKILL') {
    await first.crash();
  } else {
    const stopping = Date.now();
    // stop() SIGKILLs after 10 s: a hung shutdown shows as a null exit code.
    expect(await first.stop(), first.output()).toBe(0);
    shutdownMs = Date.now() - stopping;
    expect(shutdownMs).toBeLessThan(5000);
  }
  await chains;

  const sent = load.sent;
  const answered = sent.filter((s) => s.answer !== undefined);
  const unexpected = answered.filter((s) => !allowedStatuses(s).includes(s.answer?.status ?? 0));
  expect(unexpected.map((s) => `${s.kind} ${s.key}: ${s.answer?.status} ${JSON.stringify(s.answer?.body)}`)).toEqual([]);
  const acknowledged = answered.filter((s) => isAck(s.answer));
  const inFlight = sent.filter((s) => s.answer === undefined);

  phase('loadMs');
  const second = await startGateway({ name: `${kind}-round${round}-b`, databaseUrl: database.url, env: SERVER_ENV });
  phase('restartMs');
  const store = database.open();
  try {
    // 1. Every acknowledged write survived, and nothing is half applied.
    expect(await allViolations(store.db)).toEqual([]);
    const acked = await checkEffects(second.baseUrl, world, store, acknowledged);
    expect(acked.problems).toEqual([]);

    // 2. Every answered request replays its stored answer.
    const replayProblems: string[] = [];
    await mapLimit(answered, 16, (s) => expectReplay(second.baseUrl, s, s.answer as WireResponse, replayProblems));
    expect(replayProblems).toEqual([]);

    // 3. A request in flight at the kill replays a stored result or is applied now, once.
    let inFlightReplayedStored = 0;
    let inFlightAppliedOnReplay = 0;
    let busyRetries = 0;
    const recover = async (s: Sent) => {
      for (let attempt = 0; ; attempt += 1) {
        const res = await send(second.baseUrl, s.request);
        const code = (res.body as { error?: { code?: string } } | null)?.error?.code;
        if (res.status === 409 && code === 'idempotency_request_in_progress' && attempt < 20) {
          busyRetries += 1;
          await new Promise((resolve) => setTimeout(resolve, 100));
          continue;
        }
        s.recovered = res;
        if (res.replayed) inFlightReplayedStored += 1;
        else inFlightAppliedOnReplay += 1;
        return;
      }
    };
    // Chains are sequential, so replaying in the order sent applies a chain's writes in order.
    for (const s of inFlight) await recover(s);
    const stuck = await store.db.selectFrom('idempotency_records').select('key').where('state', '=', 'in_progress').execute();
    expect(stuck.map((r) => r.key)).toEqual([]);
    const recoveredBadly = inFlight.filter((s) => !allowedStatuses(s).includes(s.recovered?.status ?? 0));
    expect(recoveredBadly.map((s) => `${s.kind} ${s.key}: ${s.recovered?.status} ${JSON.stringify(s.recovered?.body)}`)).toEqual([]);
    // A second replay returns what the first one settled: nothing is applied twice.
    const secondReplay: string[] = [];
    await mapLimit(inFlight, 16, (s) => expectReplay(second.baseUrl, s, s.recovered as WireResponse, secondReplay));
    expect(secondReplay).toEqual([]);

    // 4. The final state: every successful write's effect, once, and still nothing half applied.
    const succeeded = sent.filter((s) => isAck(finalOutcome(s)));
    const final = await checkEffects(second.baseUrl, world, store, succeeded);
    expect(final.problems).toEqual([]);
    expect(await countViolations(store, world, sent)).toEqual([]);
    expect(await allViolations(store.db)).toEqual([]);

    const acknowledgedByKind: Record<string, number> = {};
    for (const s of acknowledged) acknowledgedByKind[s.kind] = (acknowledgedByKind[s.kind] ?? 0) + 1;
    return {
      round,
      signal,
      ...(shutdownMs !== undefined ? { shutdownMs } : {}),
      killAfterMs,
      loadFinishedBeforeKill,
      requestsSent: sent.length,
      answeredBeforeKill: answered.length,
      acknowledged: acknowledged.length,
      acknowledgedFound: acked.checked,
      acknowledgedByKind,
      refusedAsExpected: answered.length - acknowledged.length,
      inFlightAtKill: inFlight.length,
      inFlightReplayedStored,
      inFlightAppliedOnReplay,
      busyRetries,
      replaysChecked: answered.length + 2 * inFlight.length,
      phases: { ...phases, verifyMs: Date.now() - mark },
      durationMs: Date.now() - began,
    };
  } finally {
    await store.close();
    expect(await second.stop()).toBe(0);
  }
}

describe.each(STORE_KINDS)('crash and restart under load (%s)', (kind) => {
  const databases: TestDatabase[] = [];
  const rounds: RoundFigures[] = [];
  let graceful: RoundFigures | undefined;

  afterAll(async () => {
    await killAll();
    await Promise.all(databases.map((db) => db.drop().catch(() => undefined)));
    const sum = (field: keyof RoundFigures) => rounds.reduce((n, r) => n + Number(r[field] ?? 0), 0);
    writeFigures(`crash-${kind}`, {
      store: kind,
      rounds: rounds.length,
      staff: EXTRA_STAFF + 2,
      submissions: SUBMISSIONS,
      requestsSent: sum('requestsSent'),
      writesAcknowledged: sum('acknowledged'),
      writesAcknowledgedFound: sum('acknowledgedFound'),
      refusedAsExpected: sum('refusedAsExpected'),
      inFlightAtKill: sum('inFlightAtKill'),
      inFlightReplayedStored: sum('inFlightReplayedStored'),
      inFlightAppliedOnReplay: sum('inFlightAppliedOnReplay'),
      busyRetries: sum('busyRetries'),
      replaysChecked: sum('replaysChecked'),
      perRound: rounds,
      gracefulShutdown: graceful ?? null,
      recordedAt: new Date().toISOString(),
    });
  });

  for (let round = 1; round <= ROUNDS; round += 1) {
    it(
      `round ${round}: kill -9 mid-load, restart; acknowledged writes kept, nothing half or doubly applied`,
      async () => {
        const figures = await crashRound(kind, round, 'SIGKILL', (db) => databases.push(db));
        expect(figures.acknowledgedFound).toBe(figures.acknowledged);
        rounds.push(figures);
      },
      ROUND_TIMEOUT_MS,
    );
  }

  it(
    'SIGTERM mid-load: exits 0 promptly; the same checks after the restart',
    async () => {
      graceful = await crashRound(kind, 1, 'SIGTERM', (db) => databases.push(db));
      expect(graceful.acknowledgedFound).toBe(graceful.acknowledged);
      // What a draining process took in, it answered: no request was applied without its answer reaching us.
      expect(graceful.inFlightReplayedStored).toBe(0);
    },
    ROUND_TIMEOUT_MS,
  );
});
