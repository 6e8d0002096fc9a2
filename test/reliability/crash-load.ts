/** The crash tests' load: the concurrent writes sent to one process until it is killed, and what each got. */
import { randomBase62 } from '../../src/shared/ids.ts';
import { ContractViolation } from '../helpers/contract.ts';
import { UNIVERSE_ID } from '../helpers/fixtures.ts';
import { jsonRequest, send, type LoadWorld, type ShiftBody, type WireRequest, type WireResponse } from './serving.ts';

const CYCLES = 4; // start, heartbeats, stop: per staff member and round, at most
const HEARTBEATS = 2;

export type Kind = 'start' | 'heartbeat' | 'stop' | 'mark' | 'review' | 'accept' | 'reject';
export const SHIFT_KINDS: readonly Kind[] = ['start', 'heartbeat', 'stop'];

export interface Sent {
  readonly kind: Kind;
  readonly request: WireRequest;
  readonly key: string;
  /** Staff member (shift kinds) or submission (decisions) the request acts on. */
  readonly subject: string;
  /** Decisions sent as a race (accept and reject at once): one of the two is refused with 422. */
  readonly racing: boolean;
  /** The answer received before the kill. */
  answer?: WireResponse;
  /** Network failure: the request was in flight at the kill (or refused after it). */
  failure?: string;
  /** After the restart: the first replay of a request without an answer. */
  recovered?: WireResponse;
}

export const isAck = (r: WireResponse | undefined): r is WireResponse => r !== undefined && r.status >= 200 && r.status < 300;
/** The outcome the client ends up with: the answer, or what the replay after the restart returned. */
export const finalOutcome = (s: Sent): WireResponse | undefined => s.answer ?? s.recovered;
export const newKey = (kind: Kind) => `crash-${kind}-${randomBase62(16)}`;
export const nowIso = () => new Date().toISOString();
export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The concurrent load against one process; stops issuing requests once `killed` is set. */
export class Load {
  readonly sent: Sent[] = [];
  killed = false;

  private readonly baseUrl: string;
  private readonly world: LoadWorld;
  constructor(baseUrl: string, world: LoadWorld) {
    this.baseUrl = baseUrl;
    this.world = world;
  }

  private async issue(kind: Kind, subject: string, request: WireRequest, key: string, racing = false) {
    if (this.killed) return undefined;
    const entry: Sent = { kind, request, key, subject, racing };
    this.sent.push(entry);
    try {
      // A closing server answers what reaches it as usual (an undocumented 503 would fail the contract check).
      entry.answer = await send(this.baseUrl, request);
    } catch (error) {
      // An answer that breaks the OpenAPI contract is a finding, not a request lost to the kill.
      if (error instanceof ContractViolation) throw error;
      entry.failure = error instanceof Error ? `${error.message} ${String(error.cause ?? '')}` : String(error);
    }
    return entry.answer;
  }

  private shiftWrite(kind: Kind, staffId: string, path: string, body: unknown) {
    const key = newKey(kind);
    return this.issue(kind, staffId, jsonRequest('POST', path, this.world.apiKey, body, key), key);
  }

  /** start, heartbeats, stop, again: each write only after the previous one was acknowledged. */
  async staffChain(index: number): Promise<void> {
    const staff = this.world.staff[index];
    if (!staff) return;
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const start = await this.shiftWrite('start', staff.id, '/v1/activity/shifts/start', {
        gameUserId: staff.gameUserId,
        universeId: UNIVERSE_ID,
        placeId: '7',
        serverId: `srv-${index}`,
        startedAt: nowIso(),
      });
      if (start?.status !== 200) return;
      const shiftId = (start.body as ShiftBody).data.shift.id;
      for (let beat = 0; beat < HEARTBEATS; beat += 1) {
        const heartbeat = await this.shiftWrite('heartbeat', staff.id, `/v1/activity/shifts/${shiftId}/heartbeat`, {
          recordedAt: nowIso(),
          serverId: `srv-${index}`,
        });
        if (heartbeat?.status !== 200) return;
      }
      const stop = await this.shiftWrite('stop', staff.id, `/v1/activity/shifts/${shiftId}/stop`, {
        endedAt: nowIso(),
        reason: pick(['manual', 'player_left', 'server_shutdown']),
      });
      if (stop?.status !== 200) return;
    }
  }

  private decision(kind: Kind, submissionId: string, body: unknown, racing = false) {
    const operation = { mark: 'mark-under-review', review: 'review', accept: 'accept', reject: 'reject' }[
      kind as 'mark' | 'review' | 'accept' | 'reject'
    ];
    const key = newKey(kind);
    const request = jsonRequest(
      kind === 'review' ? 'PATCH' : 'POST',
      `/v1/applications/submissions/${submissionId}/${operation}`,
      this.world.token,
      body,
      key,
    );
    return this.issue(kind, submissionId, request, key, racing);
  }

  /** mark-under-review, score, accept; mark-under-review, reject; or accept racing reject. */
  async submissionChain(index: number): Promise<void> {
    const submission = this.world.submissions[index];
    if (!submission) return;
    const id = submission.id;
    switch (index % 3) {
      case 0: {
        if ((await this.decision('mark', id, { reviewNote: 'looking' }))?.status !== 200) return;
        if ((await this.decision('review', id, { score: 10 + index }))?.status !== 200) return;
        await this.decision('accept', id, { reviewNote: 'welcome', createStaffProfile: true });
        return;
      }
      case 1: {
        if ((await this.decision('mark', id, {}))?.status !== 200) return;
        await this.decision('reject', id, { reviewNote: 'sorry' });
        return;
      }
      default:
        await Promise.all([
          this.decision('accept', id, { createStaffProfile: false }, true),
          this.decision('reject', id, { reviewNote: 'race' }, true),
        ]);
    }
  }
}

/**
 * A fresh process answers its first requests slowly (connections to open, code and schemas to compile); warm it
 * with reads and refused writes, which change nothing, so that the kill lands in a load running at full speed.
 */
export async function warmUp(baseUrl: string, world: LoadWorld): Promise<void> {
  const submission = world.submissions[0]?.id ?? '';
  const requests: WireRequest[] = [
    jsonRequest('GET', '/v1/activity/shifts/active', world.apiKey, undefined),
    jsonRequest('GET', '/v1/integration', world.apiKey, undefined),
    // No Idempotency-Key: 400 before any change.
    jsonRequest('POST', '/v1/activity/shifts/start', world.apiKey, { gameUserId: '1', universeId: '1', placeId: '1', serverId: 's' }),
    jsonRequest('POST', `/v1/applications/submissions/${submission}/accept`, world.token, {}),
  ];
  for (let i = 0; i < 4; i += 1) {
    await Promise.all(Array.from({ length: 12 }, (_, j) => send(baseUrl, requests[j % requests.length] as WireRequest)));
  }
}

/** Answers a write of this kind may get under this load (anything else, a 5xx above all, is a finding). */
