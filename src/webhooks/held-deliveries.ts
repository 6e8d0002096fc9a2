import type { ClaimedDelivery } from './repository.ts';

export interface HoldLimits {
  /** Deliveries on the wire at once, over all endpoints. */
  readonly concurrency: number;
  /** Deliveries on the wire at once to one endpoint. */
  readonly perEndpointConcurrency: number;
  /** A queued delivery is sent only within this long of its claim; later it is given back (its lease may lapse). */
  readonly freshForMs: number;
}

interface Queued {
  readonly delivery: ClaimedDelivery;
  readonly claimedAt: number;
}

/**
 * The deliveries a dispatcher holds under its claims: on the wire (at most `concurrency`, and
 * `perEndpointConcurrency` per endpoint) or queued per endpoint, in claim order, for a slot. Bookkeeping only:
 * the time is passed in, nothing here waits or sends.
 */
export class HeldDeliveries {
  private readonly limits: HoldLimits;
  private readonly onWire = new Map<string, ClaimedDelivery>();
  private readonly onWirePerEndpoint = new Map<string, number>();
  private readonly queued = new Map<string, Queued[]>();
  /** The ids of the queued deliveries, to tell at once whether one is held. */
  private readonly queuedIds = new Set<string>();

  constructor(limits: HoldLimits) {
    this.limits = limits;
  }

  /** Deliveries on the wire. */
  get sending(): number {
    return this.onWire.size;
  }

  /** Deliveries queued for a slot. */
  get waiting(): number {
    return this.queuedIds.size;
  }

  holds(id: string): boolean {
    return this.onWire.has(id) || this.queuedIds.has(id);
  }

  /** Deliveries held (on the wire or queued) per endpoint: what a claim may add to. */
  perEndpoint(): Map<string, number> {
    const counts = new Map(this.onWirePerEndpoint);
    for (const [endpointId, list] of this.queued) counts.set(endpointId, (counts.get(endpointId) ?? 0) + list.length);
    return counts;
  }

  enqueue(delivery: ClaimedDelivery, claimedAt: number): void {
    const list = this.queued.get(delivery.endpointId) ?? [];
    list.push({ delivery, claimedAt });
    this.queued.set(delivery.endpointId, list);
    this.queuedIds.add(delivery.id);
  }

  /**
   * Takes the queued deliveries that may go on the wire now (their endpoints and the dispatcher have free slots),
   * counting them as on the wire, and drops those claimed too long ago to be sent (`stale`, to be given back).
   */
  take(now: number): { send: ClaimedDelivery[]; stale: string[] } {
    const send: ClaimedDelivery[] = [];
    const stale: string[] = [];
    for (const [endpointId, list] of this.queued) {
      while (list.length > 0 && this.onWire.size < this.limits.concurrency) {
        if ((this.onWirePerEndpoint.get(endpointId) ?? 0) >= this.limits.perEndpointConcurrency) break;
        const next = list.shift() as Queued;
        this.queuedIds.delete(next.delivery.id);
        if (now - next.claimedAt > this.limits.freshForMs) {
          stale.push(next.delivery.id);
          continue;
        }
        this.onWire.set(next.delivery.id, next.delivery);
        this.onWirePerEndpoint.set(endpointId, (this.onWirePerEndpoint.get(endpointId) ?? 0) + 1);
        send.push(next.delivery);
      }
      if (list.length === 0) this.queued.delete(endpointId);
    }
    return { send, stale };
  }

  /** A delivery came back from the wire: its slot is free. */
  finished(delivery: ClaimedDelivery): void {
    if (!this.onWire.delete(delivery.id)) return;
    const left = (this.onWirePerEndpoint.get(delivery.endpointId) ?? 1) - 1;
    if (left > 0) this.onWirePerEndpoint.set(delivery.endpointId, left);
    else this.onWirePerEndpoint.delete(delivery.endpointId);
  }

  /** The ids on the wire. */
  sendingIds(): string[] {
    return [...this.onWire.keys()];
  }

  /** Every queued delivery's id, taken out of the queue (stopping). */
  dropQueued(): string[] {
    const ids = [...this.queuedIds];
    this.queued.clear();
    this.queuedIds.clear();
    return ids;
  }
}
