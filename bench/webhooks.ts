/**
 * Webhook scenarios:
 * - `start-stop-webhooks`: the start-stop cycle again, now with one endpoint subscribed to every event (a local
 *   receiver); its CPU per cycle beside `start-stop`'s (no endpoint) is what enqueueing and delivering the events
 *   costs a write. The receiver also times each event from its `createdAt` to its arrival (p99 event-to-delivery
 *   while writes run).
 * - `webhook-delivery`: a backlog of deliveries written straight into the outbox, drained by the one server
 *   process into the local receiver: deliveries per second, and the CPU per delivery.
 *
 * The endpoint is enabled while these scenarios run and disabled after each, so no other scenario (and no later
 * run of `--compare` on the same database) delivers events.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { openStore } from '../src/db/connect.ts';
import { cpuUsed } from './cpu.ts';
import { PLACE_ID, UNIVERSE_ID } from './plan.ts';
import { receiverCertificate } from './receiver-tls.ts';
import type { Scenario, ScenarioContext } from './scenarios.ts';
import type { TargetResult } from './targets.ts';

export const DELIVERY_RATE_TARGET = 2_000;
export const EVENT_TO_DELIVERY_P99_TARGET_MS = 1_000;
const QUICK_BACKLOG = 500;
const FULL_BACKLOG = 30_000;

/**
 * A local HTTPS endpoint that acknowledges every delivery at once and notes when each event arrived; it keeps its
 * connections open (a minute idle) unless told to close each after its answer.
 */
class BenchReceiver {
  received = 0;
  latenciesMs: number[] = [];
  private readonly server: Server;
  readonly url: string;
  private constructor(server: Server, url: string) {
    this.server = server;
    this.url = url;
  }

  static async start(closeEach: boolean, onDelivery: (receiver: BenchReceiver, body: string) => void): Promise<BenchReceiver> {
    const holder: { self?: BenchReceiver } = {};
    const { key, cert } = receiverCertificate();
    const server = createServer({ key, cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(204, closeEach ? { connection: 'close' } : {}).end();
        if (holder.self) onDelivery(holder.self, Buffer.concat(chunks).toString('utf8'));
      });
    });
    server.keepAliveTimeout = 60_000;
    // The run ends when its work does, not when this receiver is closed.
    server.unref();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.self = new BenchReceiver(server, `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
    return holder.self;
  }

  reset(): void {
    this.received = 0;
    this.latenciesMs = [];
  }

  p99(): number | null {
    if (this.latenciesMs.length === 0) return null;
    const sorted = [...this.latenciesMs].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? null;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function onDelivery(receiver: BenchReceiver, body: string): void {
  receiver.received += 1;
  const createdAt = Date.parse((JSON.parse(body) as { createdAt: string }).createdAt);
  if (Number.isFinite(createdAt)) receiver.latenciesMs.push(Date.now() - createdAt);
}

async function waitFor(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function webhookScenarios(ctx: ScenarioContext, startStop: Scenario) {
  const workspaceId = ctx.plan.big.id;
  let receiver: BenchReceiver | undefined;
  let endpointId: string | undefined;
  let deliveryRate: number | null = null;
  let deliveryCostUs: number | null = null;
  let eventP99: number | null = null;

  /** Enables or disables the endpoint. */
  async function setEndpointEnabled(enabled: boolean): Promise<void> {
    if (!endpointId) return;
    const store = openStore(ctx.databaseUrl);
    try {
      await store.db.updateTable('webhook_endpoints').set({ enabled: enabled ? 1 : 0, updated_at: Date.now() }).where('id', '=', endpointId).execute();
    } finally {
      await store.close();
    }
  }

  /** The endpoint (every event) at the local receiver, added once, enabled. */
  async function ensureEndpoint(): Promise<{ receiver: BenchReceiver; endpointId: string }> {
    if (receiver && endpointId) {
      await setEndpointEnabled(true);
      return { receiver, endpointId };
    }
    receiver = await BenchReceiver.start(ctx.receiverCloses, onDelivery);
    endpointId = randomUUID();
    const store = openStore(ctx.databaseUrl);
    try {
      await store.db
        .insertInto('webhook_endpoints')
        .values({
          id: endpointId,
          workspace_id: workspaceId,
          url: receiver.url,
          events: '["*"]',
          enabled: 1,
          secret: `whsec_${randomBytes(32).toString('base64')}`,
          created_at: Date.now(),
          updated_at: Date.now(),
        })
        .execute();
    } finally {
      await store.close();
    }
    return { receiver, endpointId };
  }

  /** Starts and stops a shift of the last active staff member (start-stop cycles reach it last), with fresh keys. */
  async function cycleOnce(): Promise<void> {
    const big = ctx.plan.big;
    const staff = [...big.staff].reverse().find((s) => s.status === 'active');
    if (!staff) throw new Error('start-stop-webhooks: no active staff member');
    const post = async (path: string, body: unknown, alsoAccept?: { status: number; code: string }) => {
      const res = await fetch(`${ctx.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${big.key.secret}`,
          'content-type': 'application/json',
          'idempotency-key': `${ctx.runTag}-webhooks-${randomUUID()}`,
        },
        body: JSON.stringify(body),
      });
      const answer = (await res.json()) as { data: { shift: { id: string }; existing?: boolean }; error?: { code: string } };
      if (res.status === alsoAccept?.status && answer.error?.code === alsoAccept.code) return answer.data;
      if (res.status !== 200) throw new Error(`start-stop-webhooks: ${path} answered ${res.status} ${answer.error?.code ?? ''}`);
      return answer.data;
    };
    const body = { gameUserId: staff.gameUserId, universeId: UNIVERSE_ID, placeId: PLACE_ID, serverId: 'srv-webhooks' };
    let started = await post('/v1/activity/shifts/start', body);
    // Requests start-stop's load left on the wire may still reach this staff member: one of them may start the
    // shift first (then this start answers it as existing) or stop the shift this start made (then this stop is
    // 409). Either way the shift ends, with its events.
    const alreadyStopped = { status: 409, code: 'shift_not_active' };
    if (started.existing === true) {
      await post(`/v1/activity/shifts/${started.shift.id}/stop`, { reason: 'manual' }, alreadyStopped);
      started = await post('/v1/activity/shifts/start', body);
    }
    await post(`/v1/activity/shifts/${started.shift.id}/stop`, { reason: 'manual' }, alreadyStopped);
  }

  const startStopWebhooks: Scenario = {
    name: 'start-stop-webhooks',
    title: 'start then stop, with one endpoint subscribed to every event (compare with start-stop)',
    operation: { unit: 'cycle', requests: 2 },
    cleanup: () => setEndpointEnabled(false),
    async prepare() {
      const { receiver: r } = await ensureEndpoint();
      r.reset();
    },
    async check() {
      // One cycle of its own (start-stop's check replays its keys, which records nothing new).
      const before = receiver?.received ?? 0;
      await cycleOnce();
      await waitFor(() => (receiver?.received ?? 0) >= before + 2, 30_000, 'the start and stop events');
      receiver?.reset();
    },
    requests: () => {
      receiver?.reset();
      return startStop.requests();
    },
    targets(): TargetResult[] {
      eventP99 = receiver?.p99() ?? null;
      ctx.log(`  webhook deliveries received during the load: ${receiver?.received ?? 0}, event-to-delivery p99 ${eventP99 ?? '-'} ms`);
      return [
        {
          target: `event-to-delivery p99 < ${EVENT_TO_DELIVERY_P99_TARGET_MS} ms (start-stop-webhooks, nothing failing)`,
          measured: eventP99 === null ? 'no delivery' : `${eventP99} ms`,
          pass: eventP99 === null ? null : eventP99 < EVENT_TO_DELIVERY_P99_TARGET_MS,
        },
      ];
    },
  };

  const webhookDelivery: Scenario = {
    name: 'webhook-delivery',
    title: 'a backlog of outbox deliveries drained into a local receiver (then GET /health while it idles)',
    cleanup: () => setEndpointEnabled(false),
    async prepare() {
      const { receiver: r, endpointId: endpoint } = await ensureEndpoint();
      const count = ctx.profile.name === 'quick' ? QUICK_BACKLOG : FULL_BACKLOG;
      r.reset();
      const store = openStore(ctx.databaseUrl);
      const now = Date.now();
      // Written not yet due, then made due in one statement: the server would otherwise deliver the first rows
      // while the rest are still being written, outside the measured window (a drain of thousands a second
      // measured over what was left of it).
      const later = now + 86_400_000;
      try {
        for (let i = 0; i < count; i += 500) {
          const events = Array.from({ length: Math.min(500, count - i) }, () => {
            const id = randomUUID();
            const body = JSON.stringify({ id, type: 'activity.shift.started', createdAt: new Date(now).toISOString(), workspaceId, environment: 'live', data: {} });
            return { id, body };
          });
          await store.db.transaction().execute(async (trx) => {
            await trx
              .insertInto('webhook_events')
              .values(events.map((e) => ({ id: e.id, workspace_id: workspaceId, type: 'activity.shift.started', environment: 'live', body: e.body, created_at: now })))
              .execute();
            await trx
              .insertInto('webhook_deliveries')
              .values(
                events.map((e) => ({
                  id: randomUUID(),
                  event_id: e.id,
                  endpoint_id: endpoint,
                  workspace_id: workspaceId,
                  status: 'pending',
                  attempts: 0,
                  next_attempt_at: later,
                  expires_at: later + 86_400_000,
                  created_at: now,
                  updated_at: now,
                })),
              )
              .execute();
          });
        }
        await store.db
          .updateTable('webhook_deliveries')
          .set({ next_attempt_at: Date.now() })
          .where('endpoint_id', '=', endpoint)
          .where('next_attempt_at', '=', later)
          .execute();
      } finally {
        await store.close();
      }
      // The server finds them due at its next poll of the outbox (every second by default): the drain is measured
      // from the first delivery's arrival, so the wait for that poll is not in it.
      const before = r.received;
      await waitFor(() => r.received > before, 60_000, 'the first delivery');
      const started = performance.now();
      const from = ctx.meter.read();
      const first = r.received;
      await waitFor(() => r.received >= count, 600_000, `${count} deliveries`);
      const use = cpuUsed(from, ctx.meter.read());
      const drained = count - first;
      deliveryRate = Math.round(drained / ((performance.now() - started) / 1000));
      deliveryCostUs = Math.round(((use.gatewayMs + (use.databaseMs ?? 0)) * 1000) / drained);
      ctx.log(`  ${count} deliveries drained (the ${drained} after the first arrivals timed) at ${deliveryRate} deliveries/s, ${deliveryCostUs} µs CPU per delivery`);
    },
    async check() {
      if (deliveryRate === null) throw new Error('webhook-delivery: the backlog was not drained');
    },
    requests: () => [{ method: 'GET', path: '/health' }],
    targets(): TargetResult[] {
      return [
        {
          target: `webhook deliveries >= ${DELIVERY_RATE_TARGET}/s from one instance (local receiver)`,
          measured: deliveryRate === null ? 'not run' : `${deliveryRate}/s (${deliveryCostUs} µs CPU per delivery, database included)`,
          pass: deliveryRate === null ? null : deliveryRate >= DELIVERY_RATE_TARGET,
        },
      ];
    },
  };

  return {
    'start-stop-webhooks': startStopWebhooks,
    'webhook-delivery': webhookDelivery,
    close: async () => {
      await receiver?.close();
    },
  };
}
