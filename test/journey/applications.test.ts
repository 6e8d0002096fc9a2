import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { createGatewayClient } from '../../clients/typescript/src/index.ts';
import { TEST_JWT_SECRET } from '../helpers/app.ts';
import { startCli, type ServingProcess } from '../helpers/cli.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, UNIVERSE_ID } from '../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS } from '../helpers/stores.ts';
import { CENTRE_SCOPES, centreForm, provisionWithCli, runApplyScenario } from '../clients/application-centre.ts';
import { luaSummary, luaToolsMissing, runLua } from '../clients/lua.ts';
import { checkedTransport } from '../clients/typescript/gateway.ts';
import { Receiver, type Received } from '../webhooks/receiver.ts';

/**
 * One application from the game to the first shift, through real processes on each store: a gateway process,
 * the game-server module (Lua 5.1 over HTTP) in an application centre and on a game server, a reviewer with the
 * TypeScript client, and a webhook receiver subscribed to every event through provisioning, which verifies each
 * delivery's Standard Webhooks signature.
 */

const APPLICANT = '41001';
const HOOK = '/hook';
const EVENT_WAIT_MS = 20_000;

/** What clients/roblox/e2e/shift.lua prints. */
interface ShiftSummary {
  readonly shiftId?: string;
  readonly notStaff?: string;
  readonly heartbeatBatches: number;
  readonly stopped?: { shiftId: string; reason: string };
  readonly shutdown: { ok: boolean; stopped: number };
  readonly logs: string[];
}

interface EventBody {
  readonly id: string;
  readonly type: string;
  readonly createdAt: string;
  readonly workspaceId: string;
  readonly environment: string | null;
  readonly data: Record<string, unknown>;
}

/** The verified events the receiver acknowledged, in the order they arrived. */
function events(receiver: Receiver): Array<{ readonly request: Received; readonly event: EventBody }> {
  return receiver
    .at(HOOK)
    .flatMap((request) => (request.payload ? [{ request, event: request.payload as unknown as EventBody }] : []));
}

/** Resolves once the receiver got a verified event of `type` (deliveries may take a moment to start). */
async function delivered(receiver: Receiver, type: string): Promise<EventBody> {
  const deadline = Date.now() + EVENT_WAIT_MS;
  for (;;) {
    const found = events(receiver).find(({ event }) => event.type === type);
    if (found) return found.event;
    if (Date.now() > deadline) {
      throw new Error(`no ${type} event within ${EVENT_WAIT_MS} ms; got ${receiver.at(HOOK).length} request(s)`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

describe.skipIf(luaToolsMissing).each(STORE_KINDS)('an application from the game to a first shift (%s)', (kind) => {
  it(
    'applied in game, accepted by a reviewer, the new staff member works a shift and leads the board; every step is a signed event, in order',
    async () => {
      const journeyStart = Date.now();
      const database = await createTestDatabase(kind);
      cleanup.push(() => database.drop());
      const receiver = await Receiver.start();
      cleanup.push(() => receiver.close());

      // The workspace: an open form, a key for the application centre, one for game servers, every event to the receiver.
      const fixture = buildFixture({
        extraKeys: { centre: { scopes: CENTRE_SCOPES }, game: { scopes: ['activity:write'] } },
      });
      const formId = randomUUID();
      const endpointId = randomUUID();
      fixture.workspace.forms = [centreForm(formId)];
      fixture.workspace.webhooks = [{ id: endpointId, url: `${receiver.baseUrl}${HOOK}`, events: ['*'] }];
      const provisioned = await provisionWithCli(database, fixture.document);
      const secret = provisioned.webhooks.find((w) => w.id === endpointId)?.secret;
      if (!secret) throw new Error('provisioning printed no secret for the endpoint');
      receiver.setSecret(HOOK, secret);

      const server: ServingProcess = await startCli(['serve', '--port', '0', '--database-url', database.url], {
        JWT_SECRET: TEST_JWT_SECRET,
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        WEBHOOK_POLL_INTERVAL_MS: '50',
      });
      cleanup.push(async () => expect(await server.stop('SIGTERM')).toBe(0));
      const baseUrl = server.baseUrl;
      const fetch = checkedTransport(baseUrl);

      // 1. The applicant applies in the game's application centre (and, told nothing came back, the game retries).
      const { summary: applied } = await runApplyScenario({
        baseUrl,
        apiKey: fixture.keys.centre.secret,
        formId,
        gameUserId: APPLICANT,
      });
      expect(applied.submitted).toMatchObject({ outcome: 'ok', replayed: true, keys: 1 });
      expect(applied.again.outcome).toBe('submission_pending');
      const submissionId = applied.submitted.submissionId ?? '';
      const submitted = await delivered(receiver, 'application.submission.submitted');

      // 2. A reviewer finds it in the test queue, reads it and accepts it, creating the staff profile.
      const reviewer = createGatewayClient({
        baseUrl,
        token: await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 }),
        fetch,
      });
      const queue = await reviewer.listSubmissions({ environment: 'test' });
      expect(queue.body.data.submissions.map((s) => [s.id, s.status, s.applicant?.gameUserId])).toEqual([
        [submissionId, 'submitted', APPLICANT],
      ]);
      expect(queue.body.data.nextCursor).toBeNull();
      const read = (await reviewer.getSubmission(submissionId)).body.data.submission;
      expect(read.answers.map((a) => [a.questionId, a.value])).toEqual([
        ['why', `${applied.answerMarker} for why`],
        ['age', 13],
        ['tz', 'EU'],
      ]);
      expect(read.history.map((h) => [h.type, h.eventId])).toEqual([['submitted', submitted.id]]);
      const accepted = await reviewer.acceptSubmission(submissionId, {
        createStaffProfile: true,
        reviewNote: 'Welcome aboard',
      });
      expect(accepted.body.data).toMatchObject({ submissionId, status: 'accepted', staffProfileCreated: true });
      const staffId = accepted.body.data.staffProfileId ?? '';
      expect(staffId).not.toBe('');
      const acceptedEvent = await delivered(receiver, 'application.submission.accepted');

      // 3. The new staff member joins a game server: the module starts the first shift, heartbeats, and stops it.
      const shiftRun = await runLua(
        ['e2e/shift.lua'],
        {
          GATEWAY_URL: baseUrl,
          GATEWAY_API_KEY: fixture.keys.game.secret,
          E2E_UNIVERSE_ID: UNIVERSE_ID,
          E2E_GAME_USER_ID: APPLICANT,
          E2E_SHIFT_SECONDS: '2',
        },
        60_000,
      );
      expect(shiftRun.code, shiftRun.stderr).toBe(0);
      const shift = luaSummary<ShiftSummary>(shiftRun);
      expect(shift.notStaff).toBeUndefined();
      const shiftId = shift.shiftId ?? '';
      expect(shift.stopped).toEqual({ shiftId, reason: 'player_left' });
      expect(shift.heartbeatBatches).toBeGreaterThanOrEqual(1);
      expect(shift.shutdown).toEqual({ ok: true, stopped: 0 });
      expect(`${shiftRun.stdout}${shiftRun.stderr}`).not.toContain(fixture.keys.game.secret);
      const started = await delivered(receiver, 'activity.shift.started');
      const ended = await delivered(receiver, 'activity.shift.ended');

      // 4. The leaderboard, read with the TypeScript client, puts the new staff member first.
      const activity = createGatewayClient({ baseUrl, apiKey: fixture.keys.test.secret, fetch });
      const stored = (await activity.getShift(shiftId)).body.data.shift;
      expect(stored).toMatchObject({ id: shiftId, status: 'completed', endReason: 'player_left' });
      const range = {
        start: new Date(journeyStart - 3_600_000).toISOString(),
        end: new Date(Date.now() + 60_000).toISOString(),
      };
      const board = (await activity.getActivityLeaderboard(range)).body.data;
      const first = board.entries[0];
      expect(first).toMatchObject({ staffId, gameUserId: APPLICANT, position: 1, completedShifts: 1 });
      expect(first?.totalSeconds).toBeGreaterThanOrEqual(2);
      // The other active staff follow with nothing (the inactive one is not listed).
      const others = board.entries.slice(1).map((e) => `${e.gameUserId}:${e.totalSeconds}`);
      expect(others.sort()).toEqual([`${fixture.staff.alice.gameUserId}:0`, `${fixture.staff.bob.gameUserId}:0`].sort());

      // 5. The receiver got exactly these four events, in order, each signed with the endpoint's secret.
      const got = events(receiver);
      expect(receiver.at(HOOK)).toHaveLength(4);
      expect(got.map(({ event }) => event.type)).toEqual([
        'application.submission.submitted',
        'application.submission.accepted',
        'activity.shift.started',
        'activity.shift.ended',
      ]);
      expect(got.map(({ event }) => event.id)).toEqual([submitted.id, acceptedEvent.id, started.id, ended.id]);
      for (const { request, event } of got) {
        expect(request.verified).toBe(true);
        expect(request.headers['webhook-id']).toBe(event.id);
        expect(event.workspaceId).toBe(fixture.ids.workspaceId);
        const headers = request.headers as Record<string, string>;
        expect(() => new Webhook(secret).verify(`${request.body} `, headers)).toThrow();
      }
      const times = got.map(({ event }) => Date.parse(event.createdAt));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
      expect(submitted).toMatchObject({
        environment: 'test',
        data: { submission: { id: submissionId, status: 'submitted' } },
      });
      expect(acceptedEvent.id).toBe(accepted.body.data.eventId);
      expect(acceptedEvent.data).toEqual(accepted.body.data);
      for (const event of [started, ended]) {
        expect(event).toMatchObject({
          environment: 'test',
          data: { shift: { id: shiftId }, staff: { id: staffId, gameUserId: APPLICANT } },
        });
      }
      expect(ended.data).toMatchObject({ shift: { status: 'completed', endReason: 'player_left' } });
    },
    120_000,
  );
});
