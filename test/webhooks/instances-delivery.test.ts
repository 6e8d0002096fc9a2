/**
 * Two gateway processes on one PostgreSQL schema deliver the same outbox while one of them is killed with
 * `kill -9` in the middle of its deliveries and started again, and the receiver fails or delays some attempts. The
 * outbox is sampled throughout: a delivery not yet acknowledged is always leased to an instance (`claimed_until`
 * ahead), waiting for its retry (`next_attempt_at` ahead), or due, and a due one is claimed within a bound while an
 * instance runs. So an event is never left where nothing will send it again: every one is delivered. Figures (the
 * longest a delivery stayed due, its attempts, how many were seen leased or in backoff) go to
 * test/reliability/.results/instances-delivery.json.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { queryRows } from '../helpers/postgres.ts';
import { postgresAvailable } from '../helpers/stores.ts';
import { killAll, sleep, startGateway, writeFigures, type Gateway } from '../reliability/serving.ts';
import { accept, GATEWAY_ENV, world } from './processes-world.ts';
import { eventually } from './receiver.ts';

const EVENTS = 48;
/** Short lease and first retry delay, so that a killed instance's claims and failed attempts come back quickly. */
const ENV = { ...GATEWAY_ENV, WEBHOOK_LEASE_MS: '1500', WEBHOOK_RETRY_FIRST_DELAY_MS: '300' };
/** A due delivery is claimed within this while an instance runs (it polls every 50 ms here). */
const DUE_BOUND_MS = 5_000;

interface Row {
  readonly id: string;
  readonly status: string;
  readonly attempts: number;
  readonly next_attempt_at: string;
  readonly claimed_until: string | null;
}

type State = 'delivered' | 'failed' | 'leased' | 'backoff' | 'due';

function stateOf(row: Row, now: number): State {
  if (row.status === 'delivered' || row.status === 'failed') return row.status;
  if (row.claimed_until !== null && Number(row.claimed_until) > now) return 'leased';
  if (Number(row.next_attempt_at) > now) return 'backoff';
  return 'due';
}

/** Samples the outbox every `everyMs`: for each delivery, the longest it stayed due, and the states seen. */
function sampleOutbox(url: string, everyMs: number) {
  const dueSince = new Map<string, number>();
  const longestDue = new Map<string, number>();
  const seen = new Map<State, number>();
  let stopping = false;
  const loop = (async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      while (!stopping) {
        const { rows } = await client.query<Row & { now: string }>(
          `select id, status, attempts, next_attempt_at, claimed_until,
             (extract(epoch from clock_timestamp()) * 1000)::bigint as now
           from webhook_deliveries`,
        );
        for (const row of rows) {
          const now = Number(row.now);
          const state = stateOf(row, now);
          seen.set(state, (seen.get(state) ?? 0) + 1);
          if (state !== 'due') {
            dueSince.delete(row.id);
            continue;
          }
          const since = dueSince.get(row.id) ?? now;
          dueSince.set(row.id, since);
          longestDue.set(row.id, Math.max(longestDue.get(row.id) ?? 0, now - since));
        }
        await sleep(everyMs);
      }
    } finally {
      await client.end();
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      return { longestDueMs: Math.max(0, ...longestDue.values()), seen: Object.fromEntries(seen) };
    },
  };
}

describe.runIf(postgresAvailable)('two gateway processes on one PostgreSQL schema, one killed mid-delivery', () => {
  afterAll(killAll);

  it('every pending delivery is leased, in backoff or due (and claimed soon): every event is delivered', async () => {
    const { database, receiver, submissionIds } = await world('postgres', EVENTS);
    const attemptsByEvent = new Map<string, number>();
    // A third of the events fail their first attempt; a fifth are answered slowly (in flight when the kill comes).
    receiver.behaviour = ({ webhookId }) => {
      const attempt = (attemptsByEvent.get(webhookId) ?? 0) + 1;
      attemptsByEvent.set(webhookId, attempt);
      const n = parseInt(webhookId.slice(-4), 16);
      if (attempt === 1 && n % 3 === 0) return 500;
      if (attempt === 1 && n % 5 === 0) return { status: 204, afterMs: 600 };
      return 204;
    };
    const sampler = sampleOutbox(database.url, 50);
    const token = await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 });
    const gateways: Gateway[] = await Promise.all([
      startGateway({ name: 'a', databaseUrl: database.url, env: ENV }),
      startGateway({ name: 'b', databaseUrl: database.url, env: ENV }),
    ]);
    try {
      const half = Math.floor(EVENTS / 2);
      const first = await Promise.all(submissionIds.slice(0, half).map((id, i) => accept(gateways[i % 2] as Gateway, id, token)));
      await gateways[0]?.crash();
      const survivor = gateways[1] as Gateway;
      const second = await Promise.all(submissionIds.slice(half).map((id) => accept(survivor, id, token)));
      const restarted = await startGateway({ name: 'a-again', databaseUrl: database.url, env: ENV });
      const eventIds = [...first, ...second];
      await receiver.waitFor((r) => new Set(r.acknowledged('/hook')).size === EVENTS, 'every event acknowledged');
      const outbox = await sampler.stop();
      await eventually(async () => {
        const rows = await queryRows<{ status: string }>(database.url, 'select status from webhook_deliveries');
        return rows.length === EVENTS && rows.every((row) => row.status === 'delivered');
      }, 'every delivery row delivered');
      expect(new Set(receiver.acknowledged('/hook'))).toEqual(new Set(eventIds));
      expect(outbox.longestDueMs).toBeLessThan(DUE_BOUND_MS);
      expect(outbox.seen.leased ?? 0).toBeGreaterThan(0);
      expect(outbox.seen.backoff ?? 0).toBeGreaterThan(0);
      expect(await Promise.all([survivor.stop(), restarted.stop()])).toEqual([0, 0]);
      writeFigures('instances-delivery', {
        events: EVENTS,
        longestDueMs: outbox.longestDueMs,
        samplesByState: outbox.seen,
        mostAttempts: Math.max(...attemptsByEvent.values()),
        recordedAt: new Date().toISOString(),
      });
    } finally {
      await sampler.stop().catch(() => undefined);
      await receiver.close();
      await database.drop();
    }
  }, 180_000);
});
