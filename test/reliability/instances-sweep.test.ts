/**
 * The heartbeat-timeout sweep run by three real `serve` processes on one PostgreSQL schema (PostgreSQL only): every
 * silent shift is completed exactly once, with `heartbeat_timeout` and `endedAt` = its `lastHeartbeatAt`, never
 * before its timeout. The cluster's trigger logs which instance completed each shift. Figures go to
 * test/reliability/.results/instances-sweep.json.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL } from '../helpers/postgres.ts';
import { postgresAvailable } from '../helpers/stores.ts';
import { allViolations } from './invariants.ts';
import { newKey, startCluster, tally, type Cluster } from './cluster.ts';
import { jsonRequest, sleep, writeFigures, type ShiftBody } from './serving.ts';

const INSTANCES = 3;
const SWEEP_SHIFTS = 20;
const SWEEP_BATCHES = 4;
/** Small, so that the test waits seconds for the sweeps. */
const SHIFT_TIMEOUT_SECONDS = 3;
/** sweepIntervalMs(3): max(1 s, min(timeout / 5, 30 s)). */
const SWEEP_INTERVAL_MS = 1000;

describe.runIf(postgresAvailable)('the timeout sweep on several instances of one PostgreSQL database', () => {
  let cluster: Cluster;
  const figures: Record<string, unknown> = {};

  beforeAll(async () => {
    cluster = await startCluster({ instances: INSTANCES, shiftTimeoutSeconds: SHIFT_TIMEOUT_SECONDS, extraStaff: SWEEP_SHIFTS, submissions: 0 });
  });

  afterAll(async () => {
    if (!cluster) return;
    const exitCodes = await cluster.stop();
    writeFigures('instances-sweep', { instances: INSTANCES, shiftTimeoutSeconds: SHIFT_TIMEOUT_SECONDS, ...figures, exitCodes, recordedAt: new Date().toISOString() });
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
          const staff = cluster.nextStaff();
          return jsonRequest('POST', '/v1/activity/shifts/start', cluster.world.apiKey, cluster.startBody(staff.gameUserId, 'srv-sweep'), newKey('sweep'));
        });
        const answers = await cluster.fanOut(list);
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
        rows = await cluster.query<Row>(
          `select id, status, ended_at, last_heartbeat_at, end_reason from ${cluster.schema}.shifts where id = any($1)`,
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
      const log = await cluster.query<{ shift_id: string; by_instance: string; end_reason: string; early_ms: string }>(
        `select c.shift_id, c.by_instance, c.end_reason,
                (s.last_seen_at + ${SHIFT_TIMEOUT_SECONDS * 1000}) - floor(extract(epoch from c.at) * 1000) as early_ms
           from ${cluster.schema}.shift_completions c join ${cluster.schema}.shifts s on s.id = c.shift_id
          where c.shift_id = any($1)`,
        [shiftIds],
      );
      // Not before the timeout (same host clock for the gateways and PostgreSQL; 50 ms of slack).
      expect(log.filter((l) => Number(l.early_ms) > 50)).toEqual([]);
      const perShift = tally(log.map((l) => l.shift_id));
      expect(Object.keys(perShift).sort()).toEqual([...shiftIds].sort());
      expect(Object.values(perShift).every((n) => n === 1)).toBe(true);
      expect(log.every((l) => l.end_reason === 'heartbeat_timeout' && /^gateway-[1-3]$/.test(l.by_instance))).toBe(true);

      // No shift ended twice; none is half applied.
      const all = await cluster.query<{ shift_id: string; n: string }>(
        `select shift_id, count(*) as n from ${cluster.schema}.shift_completions group by shift_id having count(*) > 1`,
      );
      expect(all).toEqual([]);
      const store = cluster.database.open();
      try {
        expect(await allViolations(store.db)).toEqual([]);
      } finally {
        await store.close();
      }
      for (const gateway of cluster.gateways) {
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
  describe('the timeout sweep on several instances of one PostgreSQL database', () => {
    it.skip(`needs PostgreSQL (none answers at ${POSTGRES_URL})`, () => undefined);
  });
}
