/**
 * The load of the outage tests: writers that start, beat and stop shifts over real HTTP, each write retried with
 * its own Idempotency-Key and body until it is acknowledged, as a game server does. Every answer is recorded with
 * when it was sent and answered, and every acknowledged start and stop is kept to be checked in the database.
 */
import { UNIVERSE_ID } from '../helpers/fixtures.ts';
import { jsonRequest, send, sleep, type LoadWorld, type ShiftBody, type WireRequest } from './serving.ts';

export interface Answer {
  readonly kind: 'start' | 'heartbeat' | 'stop';
  readonly sentAt: number;
  readonly answeredAt: number;
  /** HTTP status, or 0 when no answer came (refused, reset, timed out). */
  readonly status: number;
  readonly code: string | undefined;
  readonly retryAfter: string | undefined;
}

export interface Acknowledged {
  readonly starts: Map<string, { staffId: string; startedAt: string }>;
  readonly stops: Map<string, { endedAt: string; minutes: number }>;
}

/** Longer than the 10 s every request is to be answered within: a request taking this long shows as status 0. */
const CLIENT_TIMEOUT_MS = 15_000;
/** Between retries of an unacknowledged write (the 503's Retry-After says 2 s; writers here are impatient). */
const RETRY_PAUSE_MS = 200;
const HEARTBEATS_PER_SHIFT = 3;

let keys = 0;
const newKey = (kind: string) => `outage-${kind}-${process.pid}-${(keys += 1)}-${Date.now().toString(36)}`;

export class OutageLoad {
  readonly answers: Answer[] = [];
  readonly acknowledged: Acknowledged = { starts: new Map(), stops: new Map() };
  private stopping = false;
  private readonly baseUrl: string;
  private readonly world: LoadWorld;

  constructor(baseUrl: string, world: LoadWorld) {
    this.baseUrl = baseUrl;
    this.world = world;
  }

  /** Runs `writers` writers until stop() (each writes for its own staff members in turn). */
  run(writers: number): Promise<void> {
    return Promise.all(Array.from({ length: writers }, (_, i) => this.writer(i, writers))).then(() => undefined);
  }

  stop(): void {
    this.stopping = true;
  }

  private async writer(index: number, writers: number): Promise<void> {
    const mine = this.world.staff.filter((_, i) => i % writers === index);
    for (let turn = 0; !this.stopping; turn += 1) {
      const staff = mine[turn % mine.length];
      if (!staff) return;
      await this.cycle(staff, `srv-outage-${index}`);
    }
  }

  /** start, heartbeats, stop for one staff member; each write retried until acknowledged. */
  private async cycle(staff: LoadWorld['staff'][number], serverId: string): Promise<void> {
    const start = await this.untilAcknowledged(
      'start',
      jsonRequest('POST', '/v1/activity/shifts/start', this.world.apiKey, {
        gameUserId: staff.gameUserId,
        universeId: UNIVERSE_ID,
        placeId: '7',
        serverId,
        startedAt: new Date().toISOString(),
      }, newKey('start')),
    );
    if (!start) return;
    const shift = start.data.shift;
    this.acknowledged.starts.set(shift.id, { staffId: staff.id, startedAt: String(shift.startedAt) });
    for (let beat = 0; beat < HEARTBEATS_PER_SHIFT && !this.stopping; beat += 1) {
      const body = { recordedAt: new Date().toISOString(), serverId };
      const path = `/v1/activity/shifts/${shift.id}/heartbeat`;
      if (!(await this.untilAcknowledged('heartbeat', jsonRequest('POST', path, this.world.apiKey, body, newKey('beat'))))) return;
    }
    const stop = await this.untilAcknowledged(
      'stop',
      jsonRequest('POST', `/v1/activity/shifts/${shift.id}/stop`, this.world.apiKey, {
        endedAt: new Date().toISOString(),
        reason: 'player_left',
      }, newKey('stop')),
      true,
    );
    if (stop) this.acknowledged.stops.set(shift.id, { endedAt: String(stop.data.shift.endedAt), minutes: Number(stop.data.shift.minutes) });
  }

  /**
   * Sends `request` until a 200 (its body) or, once stopping, gives up (null). A stop is sent until acknowledged
   * even while stopping, so that every shift the load started ends.
   */
  private async untilAcknowledged(kind: Answer['kind'], request: WireRequest, evenWhenStopping = false): Promise<ShiftBody | null> {
    for (;;) {
      if (this.stopping && !evenWhenStopping) return null;
      const answer = await this.attempt(kind, request);
      if (answer.status === 200) return answer.body;
      await sleep(RETRY_PAUSE_MS);
    }
  }

  private async attempt(kind: Answer['kind'], request: WireRequest): Promise<{ status: number; body: ShiftBody | null }> {
    const sentAt = Date.now();
    try {
      const response = await send(this.baseUrl, request, CLIENT_TIMEOUT_MS);
      const code = (response.body as { error?: { code?: string } } | null)?.error?.code;
      this.answers.push({ kind, sentAt, answeredAt: Date.now(), status: response.status, code, retryAfter: response.headers['retry-after'] });
      return { status: response.status, body: response.status === 200 ? (response.body as ShiftBody) : null };
    } catch (error) {
      if ((error as Error).name === 'ContractViolation') throw error;
      this.answers.push({ kind, sentAt, answeredAt: Date.now(), status: 0, code: (error as Error).message, retryAfter: undefined });
      return { status: 0, body: null };
    }
  }
}

/** A readiness probe every `everyMs` until stopped: when each answer was sent and its status. */
export interface ReadinessAnswer {
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly status: number;
}

export function probeReadiness(baseUrl: string, everyMs: number): { stop(): Promise<ReadinessAnswer[]> } {
  const seen: ReadinessAnswer[] = [];
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      const sentAt = Date.now();
      try {
        const res = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
        await res.arrayBuffer();
        seen.push({ sentAt, answeredAt: Date.now(), status: res.status });
      } catch {
        seen.push({ sentAt, answeredAt: Date.now(), status: 0 });
      }
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      return seen;
    },
  };
}
