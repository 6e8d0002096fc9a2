interface EndpointState {
  /** When the attempts this dispatcher has seen at the endpoint began failing, none succeeding since. */
  readonly failingSince?: number;
  /** When a success here last brought the endpoint's deliveries forward. */
  readonly broughtForwardAt?: number;
}

/** A down endpoint is probed at least every `outageMs`, and at least this many times over how long it has been down. */
const PROBE_FRACTION = 20;

/**
 * Tells, from the outcomes of this dispatcher's attempts, when an endpoint has come back after being down, so
 * that the success that shows it brings the endpoint's other pending deliveries forward (due now, in the
 * transaction that records the success: repository.ts, `bringDeliveriesForward`). What failed during an outage
 * then goes out as soon as the endpoint answers again, instead of after each delivery's own backoff.
 *
 * A success brings them forward when
 * - every attempt this dispatcher saw at the endpoint failed for at least `outageMs` before it (the endpoint was
 *   down: shorter failures leave deliveries due again within about the first retry delay anyway), or
 * - the delivery that succeeded was itself a retry (another instance, or this one before a restart, saw it fail),
 *   at most once per `outageMs` per endpoint.
 * An endpoint that refuses one event while accepting others (its attempts succeed between the failures) keeps
 * that event on its backoff. Only endpoints with a recent failure or bring-forward are remembered.
 *
 * While an endpoint is down (every attempt failing for at least `outageMs`), each failure also asks for a probe:
 * the endpoint's earliest pending delivery is made due within a probe delay of the failure (repository.ts,
 * `keepProbeDue`), however far each delivery's own backoff has grown, so a recovery is noticed within that delay
 * and the success brings the rest forward. The delay is `outageMs`, or a twentieth of how long the endpoint has
 * been down when that is longer: an endpoint down for ten minutes is tried every 30 s (with the default first
 * retry delay), one down for ten hours every 30 minutes.
 */
export class EndpointRecovery {
  private readonly outageMs: number;
  private readonly states = new Map<string, EndpointState>();

  constructor(outageMs: number) {
    this.outageMs = outageMs;
  }

  /**
   * Records a failure; returns when the endpoint's earliest pending delivery should be due at the latest (a
   * probe), or null while the endpoint is not down.
   */
  failed(endpointId: string, at: number): number | null {
    const state = this.states.get(endpointId);
    if (state?.failingSince === undefined) {
      this.states.set(endpointId, { ...state, failingSince: at });
      return null;
    }
    const downFor = at - state.failingSince;
    if (downFor < this.outageMs) return null;
    return at + Math.max(this.outageMs, Math.round(downFor / PROBE_FRACTION));
  }

  /** Records a success; true when it should bring the endpoint's other pending deliveries forward. */
  succeeded(endpointId: string, at: number, wasRetry: boolean): boolean {
    const state = this.states.get(endpointId);
    const wasDown = state?.failingSince !== undefined && at - state.failingSince >= this.outageMs;
    const broughtRecently = state?.broughtForwardAt !== undefined && at - state.broughtForwardAt < this.outageMs;
    const bring = wasDown || (wasRetry && !broughtRecently);
    if (bring) this.states.set(endpointId, { broughtForwardAt: at });
    else if (broughtRecently) this.states.set(endpointId, { broughtForwardAt: state?.broughtForwardAt });
    else this.states.delete(endpointId);
    return bring;
  }
}
