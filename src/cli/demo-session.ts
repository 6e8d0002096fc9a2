// What the demo does through its own API once it serves, as a game server and a bot would: a sample application
// sent through the form (so it has a form and a "Submitted" history entry), a free slot for the printed time-off
// request, and one shift under way that heartbeats keep alive while the demo runs.
import type { FastifyInstance } from 'fastify';
import { newId } from '../shared/ids.ts';
import { DEMO } from './demo-document.ts';

const HOUR_MS = 3_600_000;

type Inject = FastifyInstance['inject'];

interface Call {
  readonly method?: 'GET' | 'POST';
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** Calls the demo's own API with its key; a refusal is an error naming the call. */
async function call(inject: Inject, apiKey: string, { method = 'GET', url, headers = {}, body }: Call): Promise<unknown> {
  const reply = await inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(method === 'POST' ? { 'idempotency-key': newId(), 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(method === 'POST' ? { payload: JSON.stringify(body ?? {}) } : {}),
  });
  if (reply.statusCode !== 200) throw new Error(`demo: ${method} ${url} answered ${reply.statusCode}: ${reply.body}`);
  return (JSON.parse(reply.body) as { data: unknown }).data;
}

/** Alice's chat account in the demo's guild: who the bot's staff calls act for. */
export const ALICE_CHAT = { 'x-chat-guild-id': DEMO.guildId, 'x-acting-chat-user-id': DEMO.chatUserId };

/**
 * Sends this run's sample application through the form with the demo's key: a new applicant each run (the form
 * has a cooldown per applicant), whose id is made from `run`. Resolves with the submission's id.
 */
export async function submitSample(inject: Inject, apiKey: string, run: string): Promise<string> {
  const data = (await call(inject, apiKey, {
    method: 'POST',
    url: `/v1/applications/forms/${DEMO.formId}/submissions`,
    body: {
      applicant: { gameUserId: `2${run}`, gameUsername: 'bob', displayName: 'Bob', chatUserId: '200000000000000002' },
      answers: { why: 'I want to help the community.', age: 19, tz: 'NA', rules: true },
    },
  })) as { submission: { id: string } };
  return data.submission.id;
}

interface OwnNotice {
  readonly endsAt: string;
  readonly status: string;
}

/**
 * An hour of time off for Alice from a day after `now` (to the minute), or from the end of her latest pending or
 * approved notice when that is later: the printed request never overlaps one an earlier run made (409
 * `notice_overlap`, docs/TIME-OFF.md).
 */
export async function freeNoticeSlot(inject: Inject, apiKey: string, now: number): Promise<{ startsAt: string; endsAt: string }> {
  const { notices } = (await call(inject, apiKey, { url: '/v1/staff/me/inactivity-notices', headers: ALICE_CHAT })) as {
    notices: OwnNotice[];
  };
  const taken = notices.filter((n) => n.status === 'pending' || n.status === 'approved').map((n) => Date.parse(n.endsAt));
  const start = Math.ceil(Math.max(now + 24 * HOUR_MS, ...taken) / 60_000) * 60_000;
  return { startsAt: new Date(start).toISOString(), endsAt: new Date(start + HOUR_MS).toISOString() };
}

export interface LiveShift {
  readonly shiftId: string;
  /** Ends the heartbeats and stops the shift (the demo shutting down, as a game server would). */
  stop(): Promise<void>;
}

/**
 * Starts Dana's shift on a demo game server and sends a heartbeat every `intervalMs`, so the shift stays under
 * way (the active list, the console) while the demo runs.
 */
export async function startLiveShift(inject: Inject, apiKey: string, intervalMs: number): Promise<LiveShift> {
  const serverId = 'demo-server-live';
  const { shift } = (await call(inject, apiKey, {
    method: 'POST',
    url: '/v1/activity/shifts/start',
    body: { gameUserId: DEMO.onShift.gameUserId, universeId: DEMO.universeId, placeId: '1', serverId },
  })) as { shift: { id: string } };
  const beat = () =>
    call(inject, apiKey, { method: 'POST', url: `/v1/activity/shifts/${shift.id}/heartbeat`, body: { serverId } }).catch(
      (error: unknown) => process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`),
    );
  const timer = setInterval(() => void beat(), intervalMs);
  timer.unref();
  return {
    shiftId: shift.id,
    async stop() {
      clearInterval(timer);
      await call(inject, apiKey, {
        method: 'POST',
        url: `/v1/activity/shifts/${shift.id}/stop`,
        body: { reason: 'server_shutdown' },
      }).catch(() => undefined);
    },
  };
}
