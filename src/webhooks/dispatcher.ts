import type { Clock } from '../shared/clock.ts';
import type { Store } from '../db/store.ts';
import { randomBase62 } from '../shared/ids.ts';
import { discordChannelBody } from './discord-format.ts';
import type { DestinationOptions, PostOutcome } from './destination.ts';
import { HeldDeliveries } from './held-deliveries.ts';
import { EndpointRecovery } from './recovery.ts';
import { claimDueDeliveries, pendingBacklog, releaseClaims, type AttemptRecord, type ClaimedDelivery } from './repository.ts';
import { PendingResults } from './results.ts';
import { afterAttempt, type RetryPolicy } from './retry.ts';
import { startInlineSender, type Sender, type SenderFactory } from './sender.ts';
import { Pause, type Timer } from './timer.ts';

export interface DispatcherSettings {
  readonly allowPrivateNetworks: boolean;
  /** Deliveries in flight at once, over all endpoints. */
  readonly concurrency: number;
  /** Deliveries in flight at once to one endpoint: a slow or dead endpoint never takes every slot. */
  readonly perEndpointConcurrency: number;
  /**
   * Connecting and sending a request, and then its answer (counted from the request on the wire), must each take
   * less than this; anything else is a failed attempt (destination.ts).
   */
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
  /** When things are due: claims, leases, retries, the delivery window. */
  readonly clock: Clock;
  /** What the dispatcher waits on: its pauses between claims, before recording results, while stopping. */
  readonly timer: Timer;
  readonly log: DispatcherLog;
  readonly settings: DispatcherSettings;
  /** What signs and POSTs the deliveries: on the event loop unless given (the serving process uses a thread). */
  readonly sender?: SenderFactory;
  /** Told of every attempt's outcome as it comes back (the serving process counts them for its metrics). */
  readonly onAttempt?: (outcome: AttemptRecord['outcome']) => void;
}

/** What one claim came to: how many it took, whether it left due deliveries, and how many it could take. */
export interface ClaimRound {
  readonly claimed: number;
  readonly more: boolean;
  readonly room: number;
}

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
export const CLAIM_GATHER_MS = 25;
/** A queued delivery is sent only while this share of its lease is left unused; otherwise it is given back. */
const FRESH_SHARE_OF_LEASE = 0.25;

/** How long the loop waits after a claim, and whether a freed slot or recorded results end the wait early. */
export function pauseAfter(round: ClaimRound, pollIntervalMs: number): { readonly ms: number; readonly wakeable: boolean } {
  // A full claim means more may be due: go on as soon as a slot frees.
  if (round.claimed > 0 && round.claimed >= round.room) return { ms: pollIntervalMs, wakeable: true };
  // A claim that took everything due gathers what comes next for a moment; one that left some (an endpoint had
  // all it may take) goes on.
  if (round.claimed > 0) return round.more ? { ms: 0, wakeable: false } : { ms: CLAIM_GATHER_MS, wakeable: false };
  return { ms: pollIntervalMs, wakeable: true };
}

/**
 * Sends the outbox's due deliveries from this instance. Every serving instance runs one: claims use a lease (and
 * on PostgreSQL skip rows another instance holds), so each delivery is in one instance's hands at a time, and a
 * lapsed lease (a crashed instance) makes it due again: at least once, never lost.
 *
 * `start()` runs the loop: claim, then pause on the injected timer (`pauseAfter`). Tests may instead call
 * `claim()` and `settled()` themselves.
 */
export class Dispatcher {
  private readonly deps: DispatcherDeps;
  private readonly owner = `dispatcher_${randomBase62(12)}`;
  private readonly sender: Sender;
  private readonly held: HeldDeliveries;
  private readonly results: PendingResults;
  private readonly recovery: EndpointRecovery;
  private readonly pause: Pause;
  /** Called whenever a delivery comes back or results are recorded (see `until`). */
  private readonly watchers = new Set<() => void>();
  private loopDone: Promise<void> = Promise.resolve();
  private stopping = false;
  /** Set once stopping gave the remaining claims back: answers arriving after that are not recorded. */
  private discarding = false;
  private lastBacklogLog = Number.NEGATIVE_INFINITY;
  /** Set by `nudge()`: deliveries were committed since the current claim began, so no idle pause follows it. */
  private nudged = false;

  constructor(deps: DispatcherDeps) {
    this.deps = deps;
    const { settings } = deps;
    const destination: DestinationOptions = {
      timeoutMs: settings.timeoutMs,
      allowPrivateNetworks: settings.allowPrivateNetworks,
      excerptBytes: settings.excerptBytes,
      maxSocketsPerOrigin: settings.concurrency,
    };
    this.sender = (deps.sender ?? startInlineSender)(destination);
    this.held = new HeldDeliveries({
      concurrency: settings.concurrency,
      perEndpointConcurrency: settings.perEndpointConcurrency,
      freshForMs: settings.leaseMs * FRESH_SHARE_OF_LEASE,
    });
    this.results = new PendingResults({
      store: deps.store,
      clock: deps.clock,
      timer: deps.timer,
      log: deps.log,
      onRecorded: () => this.changed(),
    });
    this.recovery = new EndpointRecovery(settings.retry.firstDelayMs);
    this.pause = new Pause(deps.timer);
  }

  /** Runs the claim loop until `stop()`. */
  start(): this {
    this.loopDone = this.loop();
    return this;
  }

  /**
   * One claim: due deliveries, up to what this dispatcher may hold, are claimed under a lease, queued per endpoint,
   * and sent as far as the slots allow (the rest as slots free up). Logs the backlog when that is due.
   */
  async claim(): Promise<ClaimRound> {
    const { settings, store, clock } = this.deps;
    // Sending goes on while results are recorded (their leases keep them from being claimed again), as long as
    // the results waiting to be recorded stay few.
    const room =
      this.results.count > settings.concurrency * 4
        ? 0
        : settings.concurrency * PREFETCH - this.held.sending - this.held.waiting;
    if (room <= 0 || this.stopping) return { claimed: 0, more: false, room: 0 };
    const now = clock.now();
    await this.logBacklog(now);
    const { deliveries, more } = await claimDueDeliveries(store, {
      now,
      limit: room,
      leaseMs: settings.leaseMs,
      owner: this.owner,
      perEndpoint: settings.perEndpointConcurrency * PREFETCH,
      busy: this.held.perEndpoint(),
    });
    if (this.stopping) {
      await this.release(deliveries.map((d) => d.id));
      return { claimed: 0, more: false, room };
    }
    // A lease shorter than an attempt can lapse while this instance still holds the delivery: not twice.
    for (const delivery of deliveries) {
      if (!this.held.holds(delivery.id) && !this.results.holds(delivery.id)) this.held.enqueue(delivery, now);
    }
    this.pump();
    return { claimed: deliveries.length, more, room };
  }

  /**
   * Deliveries were just committed by this process: claim them now instead of at the next poll. Ends an idle
   * pause (or the pause after a full claim, which then finds no room and pauses again), and if a claim is under
   * way the loop goes on after it without pausing; the short gathering pause after a claim is left alone.
   */
  nudge(): void {
    this.nudged = true;
    this.pause.wake();
  }

  /** Resolves once nothing is on the wire or queued and every result is recorded (recorded now, not later). */
  async settled(): Promise<void> {
    await this.until(() => this.held.sending === 0 && this.held.waiting === 0);
    await this.results.flush();
  }

  /** Stops claiming, lets in-flight deliveries finish (up to `graceMs`), gives the rest back unattempted. */
  async stop(graceMs = this.deps.settings.timeoutMs): Promise<void> {
    this.stopping = true;
    this.pause.interrupt();
    await this.loopDone;
    const neverSent = this.held.dropQueued();
    if (this.held.sending > 0 && graceMs > 0) await this.until(() => this.held.sending === 0, graceMs);
    // Whatever is still on the wire is given back unattempted; its answer, if any, is ignored.
    const unfinished = [...this.held.sendingIds(), ...neverSent];
    this.discarding = true;
    await this.sender.close();
    await this.results.flush();
    await this.release(unfinished);
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      let round: ClaimRound = { claimed: 0, more: false, room: 0 };
      this.nudged = false;
      try {
        round = await this.claim();
      } catch (err) {
        this.deps.log.error({ err }, 'webhook dispatcher could not claim deliveries');
      }
      if (this.stopping) break;
      const { ms, wakeable } = pauseAfter(round, this.deps.settings.pollIntervalMs);
      if (ms > 0 && !(wakeable && this.nudged)) await this.pause.wait(ms, wakeable);
    }
  }

  /**
   * Sends queued deliveries while their endpoints and the dispatcher have free slots. One whose lease is mostly
   * spent (a slow endpoint held it back) is given back instead: due again at once, and never sent after its
   * lease could lapse.
   */
  private pump(): void {
    if (this.stopping) return;
    const { send, stale } = this.held.take(this.deps.clock.now());
    for (const delivery of send) void this.send(delivery);
    void this.release(stale);
  }

  private async send(delivery: ClaimedDelivery): Promise<void> {
    try {
      const startedAt = this.deps.clock.now();
      const { url, eventId, secret } = delivery;
      const body = delivery.format === 'discord' ? await discordChannelBody(this.deps.store.db, delivery.body) : delivery.body;
      const result = await this.sender.send({ url, eventId, secret, body });
      if (!this.discarding) this.recordOutcome(delivery, startedAt, result);
    } catch (err) {
      // The sender never rejects; anything else leaves the delivery to its lease.
      this.deps.log.error({ err }, 'webhook delivery outcome could not be handled');
    } finally {
      this.held.finished(delivery);
      this.pump();
      this.pause.wake();
      this.changed();
    }
  }

  private recordOutcome(delivery: ClaimedDelivery, startedAt: number, result: PostOutcome): void {
    const { clock, settings, log, onAttempt } = this.deps;
    const attempt = delivery.attempts + 1;
    const finishedAt = clock.now();
    const next = afterAttempt(settings.retry, {
      status: result.status,
      number: attempt,
      finishedAt,
      expiresAt: delivery.expiresAt,
      ...(result.retryAfterMs === undefined ? {} : { retryAfterMs: result.retryAfterMs }),
    });
    const context = { eventId: delivery.eventId, endpointId: delivery.endpointId, attempt, status: result.status };
    let bringForward = false;
    let probeBy: number | null = null;
    if (next.outcome === 'delivered') {
      bringForward = this.recovery.succeeded(delivery.endpointId, finishedAt, delivery.attempts > 0);
    } else {
      probeBy = this.recovery.failed(delivery.endpointId, finishedAt);
      if (next.outcome === 'failed') log.error({ ...context, error: result.error }, 'webhook delivery failed: no more retries');
      else log.warn({ ...context, error: result.error }, 'webhook delivery attempt failed; will retry');
    }
    onAttempt?.(next.outcome);
    this.results.add(
      {
        deliveryId: delivery.id,
        owner: this.owner,
        attempt,
        startedAt,
        finishedAt,
        durationMs: result.durationMs,
        status: result.status,
        error: result.error,
        excerpt: result.excerpt,
        ...next,
      },
      bringForward ? delivery.endpointId : null,
      probeBy === null ? null : { endpointId: delivery.endpointId, dueBy: probeBy },
    );
  }

  /** Gives claims back unattempted: due again at once, for any instance. Never rejects. */
  private async release(ids: readonly string[]): Promise<void> {
    try {
      await releaseClaims(this.deps.store.write, ids, this.owner);
    } catch (err) {
      this.deps.log.error({ err }, 'webhook claims could not be released; they are due again when their lease lapses');
    }
  }

  private async logBacklog(now: number): Promise<void> {
    if (now - this.lastBacklogLog < this.deps.settings.backlogLogIntervalMs) return;
    this.lastBacklogLog = now;
    const { pending, oldestCreatedAt } = await pendingBacklog(this.deps.store.db);
    if (pending > 0) {
      const oldestAgeSeconds = oldestCreatedAt === null ? 0 : Math.round((now - oldestCreatedAt) / 1000);
      this.deps.log.info({ pending, oldestAgeSeconds }, 'webhook deliveries pending');
    }
  }

  private changed(): void {
    for (const watcher of [...this.watchers]) watcher();
  }

  /** Resolves once `condition` holds (checked now and at every change), or after `withinMs` on the timer. */
  private until(condition: () => boolean, withinMs?: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.watchers.delete(check);
        if (deadline !== null) this.deps.timer.clearTimeout(deadline);
        resolve();
      };
      const check = () => {
        if (condition()) done();
      };
      const deadline = withinMs === undefined ? null : this.deps.timer.setTimeout(done, withinMs);
      this.watchers.add(check);
      check();
    });
  }
}

/** Starts a dispatcher's claim loop (see Dispatcher). */
export function startDispatcher(deps: DispatcherDeps): Dispatcher {
  return new Dispatcher(deps).start();
}
