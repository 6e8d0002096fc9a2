/**
 * When PostgreSQL goes away (docs/RELIABILITY.md, "When the database goes away"): a real `serve` process reaches
 * PostgreSQL through a proxy the test controls (test/helpers/fault-proxy.ts), while writers start, beat and stop
 * shifts throughout, each write retried under its Idempotency-Key until acknowledged. Three outages of 8 s:
 * - reset: every connection reset and new ones refused (a restart, a crash, a NAT dropping connections);
 * - partition: nothing gets through, then the network heals and held bytes are delivered;
 * - failover: open connections go silent for good, new ones hang until the database is back.
 * Each shows: the process lives; every request is answered within 10 s, a database-bound one 503
 * `service_unavailable` with Retry-After while the database is away; `/ready` is 503 then 200; requests succeed
 * again within 5 s of the database's return; every acknowledged start and stop is in the database afterwards, and
 * every event the writes enqueued reaches a webhook receiver (the dispatcher carried on by itself).
 * Figures go to test/reliability/.results/database-outage.json.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { startFaultProxy, throughProxy, type FaultProxy } from '../helpers/fault-proxy.ts';
import { POSTGRES_URL, queryRows } from '../helpers/postgres.ts';
import { createTestDatabase, postgresAvailable } from '../helpers/stores.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { newId } from '../../src/shared/ids.ts';
import { Receiver } from '../webhooks/receiver.ts';
import { OutageLoad, probeReadiness, type Answer } from './outage-load.ts';
import { killAll, seedLoadWorld, sleep, startGateway, writeFigures } from './serving.ts';

const WRITERS = 6;
const WARM_UP_MS = 2_000;
const OUTAGE_MS = 8_000;
const AFTER_MS = 7_000;
/** Every request is answered within this (CONTRACT of the service: docs/RELIABILITY.md). */
const ANSWER_BOUND_MS = 10_000;
/** Requests succeed again within this of the database's return. */
const RECOVERY_BOUND_MS = 5_000;

type Outage = 'reset' | 'partition' | 'failover';

const OUTAGES: Record<Outage, { begin(proxy: FaultProxy): void; end(proxy: FaultProxy): void }> = {
  reset: { begin: (proxy) => proxy.reset(), end: (proxy) => proxy.restore() },
  partition: { begin: (proxy) => proxy.partition(), end: (proxy) => proxy.heal() },
  failover: { begin: (proxy) => proxy.failover(), end: (proxy) => proxy.restore() },
};

const figures: Record<string, unknown> = {};

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

describe.runIf(postgresAvailable)('when PostgreSQL goes away (a real gateway through a proxy)', () => {
  afterAll(async () => {
    await killAll();
    writeFigures('database-outage', { ...figures, recordedAt: new Date().toISOString() });
  });

  for (const outage of Object.keys(OUTAGES) as Outage[]) {
    it(`${outage}: the process lives, answers 503 within 10 s, and succeeds again within 5 s of the return`, async () => {
      const database = await createTestDatabase('postgres');
      const world = await seedLoadWorld(database, { extraStaff: 12, submissions: 0 });
      // Every shift started and ended is also an event delivered to a webhook endpoint: none may be lost.
      const receiver = await Receiver.start();
      const secret = generateWebhookSecret();
      world.fixture.workspace.webhooks = [{ id: newId(), url: receiver.endpoint('/hook', secret), events: ['*'], secret }];
      const seeding = database.open();
      try {
        await applyProvisioning(seeding.db, world.fixture.document, systemClock);
      } finally {
        await seeding.close();
      }
      const target = new URL(POSTGRES_URL);
      const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const gateway = await startGateway({
        name: `outage-${outage}`,
        databaseUrl: throughProxy(database.url, proxy),
        env: {
          SHIFT_TIMEOUT_SECONDS: '600',
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          WEBHOOK_POLL_INTERVAL_MS: '200',
          WEBHOOK_RETRY_FIRST_DELAY_MS: '500',
          // A delivery whose attempt could not be recorded while the database was away is sent again once its
          // lease lapses: short here, so the test need not wait the default minute.
          WEBHOOK_LEASE_MS: '2000',
        },
      });
      const load = new OutageLoad(gateway.baseUrl, world);
      try {
        const running = load.run(WRITERS);
        const readiness = probeReadiness(gateway.baseUrl, 250);
        await sleep(WARM_UP_MS);
        const downAt = Date.now();
        OUTAGES[outage].begin(proxy);
        await sleep(OUTAGE_MS);
        const backAt = Date.now();
        OUTAGES[outage].end(proxy);
        await sleep(AFTER_MS);
        load.stop();
        await running;
        const ready = await readiness.stop();

        expect(gateway.exited(), gateway.output()).toBe(false);
        const answers = load.answers;
        if (process.env.OUTAGE_DEBUG) writeFigures(`debug-${outage}`, { downAt, backAt, answers: answers.map((a) => ({ ...a, sentAt: a.sentAt - downAt, answeredAt: a.answeredAt - downAt })), ready: ready.map((r) => ({ ...r, sentAt: r.sentAt - downAt, answeredAt: r.answeredAt - downAt })) });
        const took = (a: Answer) => a.answeredAt - a.sentAt;
        // Every request answered, and within the bound.
        expect(answers.filter((a) => a.status === 0)).toEqual([]);
        expect(Math.max(...answers.map(took))).toBeLessThan(ANSWER_BOUND_MS);
        // Only acknowledgements, 503 service_unavailable with Retry-After, or a key still held by a request the
        // outage cut (409, retried).
        const other = answers.filter(
          (a) =>
            a.status !== 200 &&
            !(a.status === 503 && a.code === 'service_unavailable' && a.retryAfter !== undefined) &&
            !(a.status === 409 && a.code === 'idempotency_request_in_progress'),
        );
        expect(other).toEqual([]);
        // Answered while the database was away: 503s only. (A request sent just before the return may wait for a
        // connection that the return then lets through.)
        const during = answers.filter((a) => a.answeredAt >= downAt && a.answeredAt < backAt);
        expect(during.filter((a) => a.status === 503).length).toBeGreaterThan(0);
        expect(during.filter((a) => a.status === 200 && a.sentAt >= downAt)).toEqual([]);
        // Back within 5 s: every writer's first acknowledgement of a write sent after the return, and no 503 for a
        // request sent later than that.
        const after = answers.filter((a) => a.sentAt >= backAt);
        const firstSuccess = Math.min(...after.filter((a) => a.status === 200).map((a) => a.answeredAt));
        expect(firstSuccess - backAt).toBeLessThan(RECOVERY_BOUND_MS);
        const lateFailures = after.filter((a) => a.sentAt >= backAt + RECOVERY_BOUND_MS && a.status !== 200);
        expect(lateFailures).toEqual([]);
        // /ready: 503 while away, 200 again after.
        const readyWhile = (from: number, to: number) =>
          ready.filter((r) => r.sentAt >= from && r.answeredAt < to).map((r) => r.status);
        expect(readyWhile(downAt + 1_000, backAt)).toContain(503);
        expect(readyWhile(downAt + 1_000, backAt).filter((status) => status !== 503)).toEqual([]);
        expect(readyWhile(backAt + RECOVERY_BOUND_MS, Infinity).filter((status) => status !== 200)).toEqual([]);
        expect(ready.filter((r) => r.status === 0)).toEqual([]);

        // Nothing acknowledged is lost.
        const shifts = await queryRows<{ id: string; status: string; ended_at: string | null }>(
          database.url,
          'select id, status, ended_at from shifts',
        );
        const byId = new Map(shifts.map((s) => [s.id, s]));
        for (const [id] of load.acknowledged.starts) expect(byId.has(id), `acknowledged start ${id}`).toBe(true);
        for (const [id, stop] of load.acknowledged.stops) {
          const row = byId.get(id);
          expect(row?.status, `acknowledged stop ${id}`).toBe('completed');
          expect(Number(row?.ended_at)).toBe(Date.parse(stop.endedAt));
        }
        expect(load.acknowledged.stops.size).toBeGreaterThan(0);
        // The webhook dispatcher carried on by itself: every delivery the outbox holds is delivered, and the
        // receiver got an event for every acknowledged start and stop.
        await vi.waitFor(
          async () => {
            const statuses = await queryRows<{ status: string }>(database.url, 'select status from webhook_deliveries');
            expect(statuses.length).toBeGreaterThan(0);
            expect(statuses.filter((row) => row.status !== 'delivered')).toEqual([]);
          },
          { timeout: 30_000, interval: 250 },
        );
        const delivered = new Set(receiver.acknowledged('/hook'));
        const events = await queryRows<{ id: string }>(database.url, 'select id from webhook_events');
        expect(events.every((event) => delivered.has(event.id))).toBe(true);
        expect(events.length).toBeGreaterThanOrEqual(load.acknowledged.starts.size + load.acknowledged.stops.size);

        const unavailable = during.filter((a) => a.status === 503).map(took);
        figures[outage] = {
          outageMs: OUTAGE_MS,
          requests: answers.length,
          acknowledgedStarts: load.acknowledged.starts.size,
          acknowledgedStops: load.acknowledged.stops.size,
          answersDuringOutage: during.length,
          unavailableAnswerMs: { p50: percentile(unavailable, 50), p99: percentile(unavailable, 99), max: Math.max(0, ...unavailable) },
          slowestAnswerMs: Math.max(...answers.map(took)),
          recoveryMs: firstSuccess - backAt,
          inProgressAnswers: answers.filter((a) => a.status === 409).length,
        };
      } finally {
        load.stop();
        await gateway.stop();
        await proxy.close();
        await receiver.close();
        await database.drop().catch(() => undefined);
      }
    }, 90_000);
  }
});
