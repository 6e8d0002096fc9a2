import type { Clock } from '../../clock.ts';
import type { Store } from '../../db/store.ts';
import { randomBase62 } from '../../ids.ts';
import type { PostOutcome } from './destination.ts';
import {
  claimDueDeliveries,
  pendingBacklog,
  recordAttempts,
  releaseClaims,
  type AttemptRecord,
  type ClaimedDelivery,
} from './repository.ts';
import { retryDelayMs, type RetryPolicy } from './retry.ts';
import { startInlineSender, type SenderFactory } from './sender.ts';

export interface DispatcherSettings {
  readonly allowPrivateNetworks: boolean;
  /** Deliveries in flight at once, over all endpoints. */
  readonly concurrency: number;
  /** Deliveries in flight at once to one endpoint: a slow or dead endpoint never takes every slot. */
  readonly perEndpointConcurrency: number;
  /** An answer must start (status line) within this; anything else is a failed attempt. */
  readonly timeoutMs: number;
  /** How long a claim is held; longer than an attempt plus its recording, so no other instance sends it meanwhile. */
  readonly leaseMs: number;
  /** How often the outbox is polled when it was found empty. */
  readonly pollIntervalMs: number;
  readonly retry: RetryPolicy;
  /** Bytes of an answer kept with the attempt. */
  readonly excerptBytes: number;
  /** How often the backlog is logged while something is pending. */
  readonly backlogLogIntervalMs: number;
}

export const DEFAULT_DISPATCHER_SETTINGS: Omit<
  DispatcherSettings,
  'allowPrivateNetworks' | 'retry' | 'leaseMs' | 'pollIntervalMs'
> = {
  concurrency: 64,
  perEndpointConcurrency: 16,
  timeoutMs: 10_000,
  excerptBytes: 256,
  backlogLogIntervalMs: 60_000,
};

/** The log methods the dispatcher uses (pino's shape). */
export interface DispatcherLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface DispatcherDeps {
  /** Claims and results are written through the store's writer; the claimed rows are read on `db`. */
  readonly store: Pick<Store, 'db' | 'write' | 'dialect'>;
  readonly clock: Clock;
  readonly log: DispatcherLog;
  readonly settings: DispatcherSettings;
  /** What signs and POSTs the deliveries: on the event loop unless given (the serving process uses a thread). */
  readonly sender?: SenderFactory;
  /** Told of every attempt's outcome as it comes back (the serving process counts them for its metrics). */
  readonly onAttempt?: (outcome: AttemptRecord['outcome']) => void;
}

export interface Dispatcher {
  /** Stops claiming, lets in-flight deliveries finish (up to `graceMs`), releases the rest unattempted. */
  stop(graceMs?: number): Promise<void>;
}

// How long results may wait to be recorded together (one transaction for many deliveries).
const RECORD_FLUSH_MS = 20;
/**
 * Deliveries held per endpoint (and in all), as a multiple of those in flight: the rest wait in a local queue,
 * so a finished delivery's slot is refilled at once while the next claim (a transaction, milliseconds on
 * PostgreSQL) is under way, instead of every slot waiting for it.
 */
const PREFETCH = 4;
/**
 * After a claim that took everything due, the next one waits this long (whatever finishes meanwhile): deliveries
 * that become due one by one under a steady load then go in one claim each pause, instead of a claim (a
 * transaction) each, and the outbox is not polled in a tight loop.
 */
const CLAIM_GATHER_MS = 25;
/** A queued delivery is sent only while this share of its lease is left unused; otherwise it is given back. */
const FRESH_SHARE_OF_LEASE = 0.25;

function is2xx(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/**
 * Sends the outbox's due deliveries from this instance. Every serving instance runs one: claims use a lease (and
 * on PostgreSQL skip rows another instance holds), so each delivery is in one instance's hands at a time, and a
 * lapsed lease (a crashed instance) makes it due again: at least once, never lost.
 */
export function startDispatcher({ store, clock, log, settings, sender: startSender, onAttempt }: DispatcherDeps): Dispatcher {
  const owner = `dispatcher_${randomBase62(12)}`;
  const { leaseMs } = settings;
  const sender = (startSender ?? startInlineSender)(settings);
  const inFlight = new Map<string, ClaimedDelivery>();
  /** Claimed deliveries waiting for a slot, per endpoint, with when they were claimed. */
  const queued = new Map<string, { delivery: ClaimedDelivery; claimedAt: number }[]>();
  /** Deliveries in flight per endpoint. */
  const perEndpoint = new Map<string, number>();
  const finished = new Set<string>();
  let results: AttemptRecord[] = [];
  let flushing: Promise<void> | null = null;
  let running = true;
  // Set once stopping gave the remaining claims back: answers arriving after that are not recorded.
  let discard = false;
  let wake: (() => void) | null = null;
  let lastBacklogLog = 0;

  const signal = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function flush(): Promise<void> {
    while (results.length > 0) {
      const batch = results;
      results = [];
      try {
        await recordAttempts(store.write, batch);
      } catch (err) {
        // The leases lapse and the deliveries are sent again: at least once.
        log.error({ err, deliveries: batch.length }, 'webhook attempts could not be recorded');
      }
      for (const record of batch) finished.delete(record.deliveryId);
    }
  }

  function scheduleFlush(): void {
    flushing ??= new Promise<void>((resolve) => setTimeout(resolve, RECORD_FLUSH_MS))
      .then(flush)
      .finally(() => {
        flushing = null;
        if (results.length > 0) scheduleFlush();
        signal();
      });
  }

  function outcomeOf(delivery: ClaimedDelivery, result: PostOutcome, startedAt: number): AttemptRecord {
    const attempt = delivery.attempts + 1;
    const finishedAt = clock.now();
    const base = {
      deliveryId: delivery.id,
      owner,
      attempt,
      startedAt,
      finishedAt,
      durationMs: result.durationMs,
      status: result.status,
      error: result.error,
      excerpt: result.excerpt,
    };
    if (is2xx(result.status)) return { ...base, outcome: 'delivered', nextAttemptAt: finishedAt };
    const next = finishedAt + retryDelayMs(settings.retry, attempt);
    const context = { eventId: delivery.eventId, endpointId: delivery.endpointId, attempt, status: result.status };
    if (finishedAt >= delivery.expiresAt) {
      log.error({ ...context, error: result.error }, 'webhook delivery failed: no more retries');
      return { ...base, outcome: 'failed', nextAttemptAt: finishedAt };
    }
    log.warn({ ...context, error: result.error }, 'webhook delivery attempt failed; will retry');
    // The last retry is made when the delivery window closes.
    return { ...base, outcome: 'pending', nextAttemptAt: Math.min(next, delivery.expiresAt) };
  }

  async function send(delivery: ClaimedDelivery): Promise<void> {
    const startedAt = clock.now();
    const { url, eventId, secret, body } = delivery;
    const result: PostOutcome = await sender.send({ url, eventId, secret, body });
    if (discard) return;
    const record = outcomeOf(delivery, result, startedAt);
    onAttempt?.(record.outcome);
    results.push(record);
    finished.add(delivery.id);
    scheduleFlush();
  }

  function launch(delivery: ClaimedDelivery): void {
    inFlight.set(delivery.id, delivery);
    perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
    void send(delivery).finally(() => {
      inFlight.delete(delivery.id);
      const left = (perEndpoint.get(delivery.endpointId) ?? 1) - 1;
      if (left > 0) perEndpoint.set(delivery.endpointId, left);
      else perEndpoint.delete(delivery.endpointId);
      pump();
      signal();
    });
  }

  /** The ids of the queued deliveries. */
  function queuedIds(): string[] {
    return [...queued.values()].flatMap((list) => list.map((q) => q.delivery.id));
  }

  /** Deliveries held (in flight or queued) per endpoint: what a claim may add to. */
  function held(): Map<string, number> {
    const counts = new Map(perEndpoint);
    for (const [endpointId, list] of queued) counts.set(endpointId, (counts.get(endpointId) ?? 0) + list.length);
    return counts;
  }

  /**
   * Sends queued deliveries while their endpoints and the dispatcher have free slots. One whose lease is mostly
   * spent (a slow endpoint held it back) is given back instead: due again at once, and never sent after its
   * lease could lapse.
   */
  function pump(): void {
    if (queued.size === 0 || !running) return;
    const stale: string[] = [];
    const now = clock.now();
    for (const [endpointId, list] of queued) {
      while (list.length > 0 && inFlight.size < settings.concurrency) {
        if ((perEndpoint.get(endpointId) ?? 0) >= settings.perEndpointConcurrency) break;
        const next = list.shift() as { delivery: ClaimedDelivery; claimedAt: number };
        if (now - next.claimedAt > leaseMs * FRESH_SHARE_OF_LEASE) stale.push(next.delivery.id);
        else launch(next.delivery);
      }
      if (list.length === 0) queued.delete(endpointId);
    }
    if (stale.length > 0) {
      releaseClaims(store.write, stale, owner).catch((err: unknown) => {
        log.error({ err }, 'webhook claims could not be released; they are due again when their lease lapses');
      });
    }
  }

  function enqueue(delivery: ClaimedDelivery, claimedAt: number): void {
    const list = queued.get(delivery.endpointId) ?? [];
    list.push({ delivery, claimedAt });
    queued.set(delivery.endpointId, list);
  }

  /** Every queued delivery, taken out of the queue (stopping). */
  function drainQueue(): string[] {
    const ids = queuedIds();
    queued.clear();
    return ids;
  }

  async function logBacklog(now: number): Promise<void> {
    if (now - lastBacklogLog < settings.backlogLogIntervalMs) return;
    lastBacklogLog = now;
    const { pending, oldestCreatedAt } = await pendingBacklog(store.db);
    if (pending > 0) {
      const oldestAgeSeconds = oldestCreatedAt === null ? 0 : Math.round((now - oldestCreatedAt) / 1000);
      log.info({ pending, oldestAgeSeconds }, 'webhook deliveries pending');
    }
  }

  async function loop(): Promise<void> {
    while (running) {
      // Sending goes on while results are recorded (their leases keep them from being claimed again), as long as
      // the results waiting to be recorded stay few.
      const free =
        finished.size > settings.concurrency * 4 ? 0 : settings.concurrency * PREFETCH - inFlight.size - queuedIds().length;
      let claimed = 0;
      let more = false;
      if (free > 0) {
        try {
          const now = clock.now();
          await logBacklog(now);
          const claim = await claimDueDeliveries(store, {
            now,
            limit: free,
            leaseMs,
            owner,
            perEndpoint: settings.perEndpointConcurrency * PREFETCH,
            busy: held(),
          });
          const { deliveries } = claim;
          claimed = deliveries.length;
          more = claim.more;
          if (!running) {
            await releaseClaims(store.write, deliveries.map((d) => d.id), owner);
            break;
          }
          // A lease shorter than an attempt can lapse while this instance still holds the delivery: not twice.
          const alreadyQueued = new Set(queuedIds());
          for (const delivery of deliveries) {
            if (!inFlight.has(delivery.id) && !finished.has(delivery.id) && !alreadyQueued.has(delivery.id)) enqueue(delivery, now);
          }
          pump();
        } catch (err) {
          log.error({ err }, 'webhook dispatcher could not claim deliveries');
        }
      }
      if (!running) break;
      // A full claim means more may be due: go on as soon as a slot frees. A claim that took everything due
      // gathers what comes next for a moment; one that left some (an endpoint had all it may take) goes on.
      if (claimed > 0 && claimed >= free) await sleep(settings.pollIntervalMs);
      else if (claimed > 0 && !more) await new Promise((resolve) => setTimeout(resolve, CLAIM_GATHER_MS));
      else if (claimed > 0) continue;
      else await sleep(settings.pollIntervalMs);
    }
  }

  const loopDone = loop();

  return {
    async stop(graceMs = settings.timeoutMs) {
      running = false;
      signal();
      await loopDone;
      const neverSent = drainQueue();
      const deadline = Date.now() + graceMs;
      while (inFlight.size > 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // Whatever is still on the wire is given back unattempted; its answer, if any, is ignored.
      const unfinished = [...inFlight.keys(), ...neverSent];
      discard = true;
      await sender.close();
      await flushing;
      await flush();
      try {
        await releaseClaims(store.write, unfinished, owner);
      } catch (err) {
        log.error({ err }, 'webhook claims could not be released; they are due again when their lease lapses');
      }
    },
  };
}
