import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli, type ServingProcess } from '../helpers/cli.ts';
import type { FetchedResponse } from '../helpers/contract.ts';
import { TEST_JWT_SECRET } from '../helpers/app.ts';
import { bearer, buildFixture, dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';
import { CENTRE_SCOPES, centreForm, provisionWithCli, runApplyScenario } from './application-centre.ts';
import { busted, luaToolsMissing as toolsMissing, runLua } from './lua.ts';

/**
 * The game-server client (clients/roblox): its busted unit suite under Lua 5.1, and an end-to-end run in
 * which the Lua core, over real HTTP, drives a real gateway process on each store: shift tracking on a game
 * server, and an in-game application centre.
 */

describe.skipIf(toolsMissing)('game-server client: busted unit suite (Lua 5.1)', () => {
  it('passes, every test run and none pending', async () => {
    const run = await runLua([busted ?? 'busted', '--output=json'], {}, 120_000);
    const report = JSON.parse(run.stdout) as {
      successes: unknown[];
      failures: Array<{ name: string; message: string }>;
      errors: Array<{ name: string; message: string }>;
      pendings: unknown[];
    };
    expect([...report.failures, ...report.errors].map((f) => `${f.name}: ${f.message}`)).toEqual([]);
    expect(report.pendings).toEqual([]);
    expect(report.successes.length).toBeGreaterThanOrEqual(50);
    expect(run.code).toBe(0);
  });
});

interface Summary {
  shifts: Record<string, string>;
  leaver: string;
  saw429: boolean;
  retriedAfter429: boolean;
  notStaff: Record<string, string>;
  /** Logical starts (distinct Idempotency-Keys) for the player who is not staff, rejoin included. */
  notStaffStarts: number;
  fullHeartbeatBatches: number;
  shutdown: { ok: boolean; stopped: number };
  requests: number;
  logs: string[];
}

interface ShiftView {
  id: string;
  status: string;
  startedAt: string;
  lastHeartbeatAt: string;
  endedAt?: string;
  endReason?: string;
}

const UNIVERSE = '4242';
const STAFF = ['31001', '31002', '31003', '31004'];
const NOT_STAFF = '39999';
const LEAVER = '31002';
const BATCH_PATHS = ['/v1/activity/shifts/heartbeats', '/v1/activity/servers/{serverId}/stop'];

function provisioningDocument(ids: { workspace: string; application: string; gameKey: string; readKey: string }) {
  return {
    workspaces: [
      {
        id: ids.workspace,
        name: 'Game servers',
        slug: `game-servers-${ids.workspace.slice(0, 8)}`,
        staff: STAFF.map((gameUserId) => ({
          id: randomUUID(),
          displayName: `Staff ${gameUserId}`,
          gameUserId,
          gameUsername: `staff_${gameUserId}`,
          status: 'active',
        })),
        applications: [
          {
            id: ids.application,
            name: 'Main game',
            approved: true,
            allowedUniverseIds: [UNIVERSE],
            features: { activity: true },
            keys: [
              { id: ids.gameKey, environment: 'test', scopes: ['activity:write'] },
              { id: ids.readKey, environment: 'test', scopes: ['activity:read'] },
            ],
          },
        ],
      },
    ],
  };
}

describe.skipIf(toolsMissing).each(STORE_KINDS)('game-server client end to end (%s)', (kind) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    dir = mkdtempSync(join(tmpdir(), 'wsg-roblox-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'joins, a 429 burst, batch heartbeats, a leave and a shutdown end every shift as the API then shows',
    async () => {
      const ids = { workspace: randomUUID(), application: randomUUID(), gameKey: randomUUID(), readKey: randomUUID() };
      const document = join(dir, 'provision.json');
      writeFileSync(document, JSON.stringify(provisioningDocument(ids)));
      const provisioned = await runCli(['provision', document], { DATABASE_URL: database.url });
      expect(provisioned.code, provisioned.stderr).toBe(0);
      const keys = (JSON.parse(provisioned.stdout) as { keys: Array<{ id: string; secret: string }> }).keys;
      const gameKey = keys.find((k) => k.id === ids.gameKey)?.secret;
      const readKey = keys.find((k) => k.id === ids.readKey)?.secret;
      if (!gameKey || !readKey) throw new Error('provisioning printed no keys');

      // Two requests a second per key: the client's burst of five starts is certain to meet a 429.
      const server: ServingProcess = await startCli(['serve', '--port', '0', '--database-url', database.url], {
        RATE_LIMIT_MAX: '2',
        RATE_LIMIT_WINDOW_SECONDS: '1',
      });
      try {
        const paths = Object.keys(((await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { paths: object }).paths);
        expect(BATCH_PATHS.filter((p) => !paths.includes(p)), 'batch calls the module needs').toEqual([]);

        const run = await runLua(
          ['e2e/run.lua'],
          {
            GATEWAY_URL: server.baseUrl,
            GATEWAY_API_KEY: gameKey,
            E2E_STAFF: STAFF.join(','),
            E2E_NOT_STAFF: NOT_STAFF,
            E2E_LEAVER: LEAVER,
            E2E_UNIVERSE_ID: UNIVERSE,
          },
          150_000,
        );
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout + run.stderr).not.toContain(gameKey);
        const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as Summary;
        expect(summary.logs.join('\n')).not.toContain(gameKey);

        expect(summary.saw429).toBe(true);
        expect(summary.retriedAfter429).toBe(true);
        expect(summary.notStaff).toEqual({ [NOT_STAFF]: 'not_staff' });
        expect(summary.notStaffStarts).toBe(1);
        expect(summary.fullHeartbeatBatches).toBeGreaterThanOrEqual(2);
        expect(summary.shutdown).toEqual({ ok: true, stopped: STAFF.length - 1 });
        expect(Object.keys(summary.shifts).sort()).toEqual([...STAFF].sort());

        // Read back through the API with the read-only key (rate limited too: honour Retry-After).
        const get = async (path: string): Promise<FetchedResponse> => {
          for (let attempt = 0; attempt < 20; attempt++) {
            const res = await server.request(path, { headers: { authorization: `Bearer ${readKey}` } });
            if (res.statusCode !== 429) return res;
            await new Promise((r) => setTimeout(r, 1000 * Number(res.headers['retry-after'] ?? 1)));
          }
          throw new Error(`still rate limited: ${path}`);
        };
        for (const gameUserId of STAFF) {
          const shiftId = summary.shifts[gameUserId];
          const res = await get(`/v1/activity/shifts/${shiftId}`);
          expect(res.statusCode).toBe(200);
          const shift = (res.json() as { data: { shift: ShiftView } }).data.shift;
          expect(shift.status).toBe('completed');
          expect(shift.endReason).toBe(gameUserId === LEAVER ? 'player_left' : 'server_shutdown');
          expect(Date.parse(shift.lastHeartbeatAt)).toBeGreaterThan(Date.parse(shift.startedAt));
          expect(Date.parse(shift.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(shift.lastHeartbeatAt));
        }
        const active = await get('/v1/activity/shifts/active');
        expect(active.statusCode).toBe(200);
        expect((active.json() as { data: { shifts: unknown[] } }).data.shifts).toEqual([]);
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    },
    240_000,
  );
});

interface QueueView {
  submissions: Array<{ id: string; applicant: { gameUserId: string | null; gameUsername: string | null } | null }>;
}
interface SubmissionView {
  submission: {
    id: string;
    status: string;
    environment: string;
    answers: Array<{ questionId: string; label: string; type: string; value: unknown }>;
    history: Array<{ type: string; actor: { type: string; id: string; name: string | null } }>;
  };
}

const APPLICANT = '41001';
const UNKNOWN_QUESTION = { code: 'unknown_question', message: 'is not a question of this form' };

describe.skipIf(toolsMissing).each(STORE_KINDS)('game-server client: the application centre end to end (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.drop();
  });

  it(
    'broken answers get issues by question, a lost answer is replayed under its key, a second submission is pending, and the status lists the one submission',
    async () => {
      const fixture = buildFixture({ extraKeys: { centre: { scopes: CENTRE_SCOPES } } });
      const formId = randomUUID();
      fixture.workspace.forms = [centreForm(formId)];
      await provisionWithCli(database, fixture.document);
      const centreKey = fixture.keys.centre.secret;
      const server = await startCli(['serve', '--port', '0', '--database-url', database.url], {
        JWT_SECRET: TEST_JWT_SECRET,
      });
      try {
        const { summary, output } = await runApplyScenario({
          baseUrl: server.baseUrl,
          apiKey: centreKey,
          formId,
          gameUserId: APPLICANT,
        });
        // The key never shows; answers and the applicant's names reach neither the module's log nor the gateway's.
        expect(output).not.toContain(centreKey);
        expect(summary.logs.join('\n')).not.toContain(summary.answerMarker);
        expect(server.output()).not.toContain(summary.answerMarker);

        expect(summary.form).toMatchObject({ ok: true, id: formId, formStatus: 'open', questionIds: ['why', 'age', 'tz'] });

        // Every problem at once, by question, with the codes and messages the service documents.
        expect(summary.missing).toMatchObject({ outcome: 'validation_failed', status: 400, issueCount: 3 });
        expect(summary.missing.byQuestion).toEqual({
          why: [{ code: 'required', message: 'is required' }],
          age: [{ code: 'required', message: 'is required' }],
          e2e_no_such_question: [UNKNOWN_QUESTION],
        });
        expect(summary.missing.otherIssues).toEqual([]);
        expect(summary.broken).toMatchObject({ outcome: 'validation_failed', status: 400, issueCount: 4 });
        expect(summary.broken.byQuestion).toEqual({
          why: [{ code: 'too_long', message: 'must be at most 2000 characters' }],
          age: [{ code: 'above_max', message: 'must be at most 99' }],
          tz: [{ code: 'not_an_option', message: 'must be one of the options offered' }],
          e2e_no_such_question: [UNKNOWN_QUESTION],
        });
        expect(summary.broken.otherIssues).toEqual([]);

        // The first answer to the fitting submission was lost: its retry, under the same key, was replayed.
        const { submitted } = summary;
        expect(submitted).toMatchObject({
          ok: true,
          outcome: 'ok',
          submissionStatus: 'submitted',
          attempts: 2,
          keys: 1,
          answerLost: true,
          replayed: true,
        });
        const submissionId = submitted.submissionId;
        expect(submissionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
        const posts = summary.requests.filter((r) => r.method === 'POST');
        expect(posts.map((r) => [r.status, r.replayed, r.lost === true])).toEqual([
          [400, false, false],
          [400, false, false],
          [200, false, true],
          [200, true, false],
          [409, false, false],
        ]);
        expect(posts[3]?.key).toBe(posts[2]?.key);
        expect(new Set(posts.map((r) => r.key)).size).toBe(4);
        expect(summary.requests.filter((r) => r.method === 'GET').every((r) => r.key === undefined)).toBe(true);

        expect(summary.again).toMatchObject({ outcome: 'submission_pending', status: 409, submissionId });
        expect(summary.status.outcome).toBe('ok');
        expect(summary.status.submissions).toEqual([
          {
            id: submissionId,
            formId,
            formName: 'Moderator application',
            status: 'submitted',
            createdAt: expect.any(String) as string,
          },
        ]);

        // The API knows one submission, with the answers that fit and one recorded command.
        const status = await server.request(`/v1/applications/applicants/${APPLICANT}/submissions`, {
          headers: bearer(centreKey),
        });
        expect(status.statusCode).toBe(200);
        expect((status.json() as { data: unknown }).data).toEqual({
          submissions: [
            {
              id: submissionId,
              formId,
              formName: 'Moderator application',
              status: 'submitted',
              createdAt: summary.status.submissions?.[0]?.createdAt,
              decidedAt: null,
            },
          ],
        });
        const reviewer = bearer(await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 3_600_000 }));
        const everyStatus = 'submitted,under_review,accepted,rejected';
        const queue = await server.request(`/v1/applications/submissions?environment=test&status=${everyStatus}`, {
          headers: reviewer,
        });
        expect(queue.statusCode).toBe(200);
        const items = (queue.json() as { data: QueueView }).data.submissions;
        expect(items.map((item) => [item.id, item.applicant?.gameUserId, item.applicant?.gameUsername])).toEqual([
          [submissionId, APPLICANT, `applicant_${APPLICANT}`],
        ]);
        const one = await server.request(`/v1/applications/submissions/${submissionId}`, { headers: reviewer });
        expect(one.statusCode).toBe(200);
        const submission = (one.json() as { data: SubmissionView }).data.submission;
        expect(submission).toMatchObject({ status: 'submitted', environment: 'test' });
        expect(submission.answers.map((a) => [a.questionId, a.type, a.value])).toEqual([
          ['why', 'long_text', `${summary.answerMarker} for why`],
          ['age', 'number', 13],
          ['tz', 'choice', 'EU'],
        ]);
        expect(submission.history.map((h) => [h.type, h.actor])).toEqual([
          ['submitted', { type: 'api_key', id: fixture.ids.applicationId, name: 'Acme game' }],
        ]);
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    },
    120_000,
  );
});
