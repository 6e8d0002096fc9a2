import type { Clock } from '../shared/clock.ts';
import type { Store } from '../db/store.ts';
import { bringDeliveriesForward, keepProbeDue, recordAttempts, type AttemptRecord, type Probe } from './repository.ts';
import type { Timer, TimerHandle } from './timer.ts';

/** How long results may wait to be recorded together (one transaction for many deliveries). */
export const RECORD_FLUSH_MS = 20;

export interface ResultsDeps {
  readonly store: Pick<Store, 'write' | 'dialect'>;
  readonly clock: Clock;
  readonly timer: Timer;
  readonly log: { error(object: object, message: string): void };
  /** Told after each transaction of results (committed or not): their deliveries are no longer held. */
  readonly onRecorded: () => void;
}

/**
 * Finished attempts waiting to be recorded: those of about `RECORD_FLUSH_MS` go in one transaction, which also
 * brings forward the pending deliveries of endpoints that one of them showed to be back, and keeps a probe due for
 * endpoints that are down (recovery.ts).
 */
export class PendingResults {
  private readonly deps: ResultsDeps;
  private waiting: AttemptRecord[] = [];
  private bringForward = new Set<string>();
  /** Per endpoint that is down, when its earliest pending delivery is to be due at the latest (recovery.ts). */
  private probes = new Map<string, number>();
  /** Deliveries whose result is not recorded yet (waiting, or in the transaction under way). */
  private readonly unrecorded = new Set<string>();
  private scheduled: TimerHandle | null = null;
  private flushing: Promise<void> | null = null;

  constructor(deps: ResultsDeps) {
    this.deps = deps;
  }

  /** Results not recorded yet. */
  get count(): number {
    return this.unrecorded.size;
  }

  holds(deliveryId: string): boolean {
    return this.unrecorded.has(deliveryId);
  }

  /**
   * Adds a result, to be recorded within `RECORD_FLUSH_MS`; `bringForward` names an endpoint that is back, `probe`
   * one that is down.
   */
  add(record: AttemptRecord, bringForward: string | null, probe: Probe | null = null): void {
    this.waiting.push(record);
    this.unrecorded.add(record.deliveryId);
    if (bringForward !== null) this.bringForward.add(bringForward);
    if (probe !== null) {
      const earlier = this.probes.get(probe.endpointId);
      this.probes.set(probe.endpointId, earlier === undefined ? probe.dueBy : Math.min(earlier, probe.dueBy));
    }
    if (this.scheduled === null && this.flushing === null) {
      this.scheduled = this.deps.timer.setTimeout(() => {
        this.scheduled = null;
        void this.flush();
      }, RECORD_FLUSH_MS);
    }
  }

  /** Records every waiting result now; resolves once nothing is left unrecorded. */
  async flush(): Promise<void> {
    if (this.scheduled !== null) {
      this.deps.timer.clearTimeout(this.scheduled);
      this.scheduled = null;
    }
    // Results that arrive while a transaction runs go in the next one, at once.
    while (this.waiting.length > 0 || this.flushing !== null) {
      this.flushing ??= this.record().finally(() => {
        this.flushing = null;
      });
      await this.flushing;
    }
  }

  private async record(): Promise<void> {
    const batch = this.waiting;
    const endpoints = [...this.bringForward];
    const probes = [...this.probes].map(([endpointId, dueBy]) => ({ endpointId, dueBy }));
    this.waiting = [];
    this.bringForward = new Set();
    this.probes = new Map();
    try {
      await this.deps.store.write(async (trx) => {
        await recordAttempts(trx, this.deps.store.dialect, batch);
        const now = this.deps.clock.now();
        await bringDeliveriesForward(trx, endpoints, now);
        for (const probe of probes) await keepProbeDue(trx, probe, now);
      });
    } catch (err) {
      // The leases lapse and the deliveries are sent again: at least once.
      this.deps.log.error({ err, deliveries: batch.length }, 'webhook attempts could not be recorded');
    }
    for (const record of batch) this.unrecorded.delete(record.deliveryId);
    this.deps.onRecorded();
  }
}
