import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeResult } from '../../../src/idempotency/records.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { SubmissionDocument } from '../../../src/provisioning/schema.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { runCli } from '../../helpers/cli.ts';
import {
  bearer,
  buildFixture,
  dashboardToken,
  REVIEWER_USER_ID,
  seed,
  type Fixture,
  type WorkspaceFixture,
} from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { call, submissionDoc, submissionRow } from '../applications/helpers.ts';
import { ask, dataOf, decide, noticeBody, type NoticeData } from '../time-off/helpers.ts';
import { addHistory, completedShift, notice } from '../activity/reports/helpers.ts';
import { shiftClient, startBody } from '../activity/shifts/shift-client.ts';
import { columnsContaining, dumpTables } from './tables.ts';

/** The person whose data is erased: staff in both workspaces, and an applicant. Values found nowhere else. */
const PERSON = {
  gameUserId: '734001234567890123',
  gameUsername: 'zquixoteErasable',
  displayName: 'Zelda Quixote',
  chatUserId: '88877766655544',
} as const;
/** What was written about them: answers, reviewers' notes, an inactivity reason. */
const WRITTEN = {
  answer: 'Zelda answers about her hometown',
  provisionedNotes: 'Provisioned notes on Zelda',
  markNote: 'Looking at Zelda now',
  reviewerNotes: 'Zelda did well in the interview',
  acceptNote: 'Welcome aboard Zelda',
  noticeReason: 'Zelda exam fortnight',
  askedReason: 'Zelda family wedding',
  decisionNote: 'Enjoy the wedding Zelda',
} as const;
const NEEDLES = [...Object.values(PERSON), ...Object.values(WRITTEN)];

interface EraseOutput {
  erasureId: string;
  ranAt: string;
  counts: Record<string, number>;
  changed: Record<string, unknown[]>;
}

interface LeaderboardEntry {
  staffId: string;
  displayName: string;
  gameUserId: string;
  totalSeconds: number;
  totalMinutes: number;
  completedShifts: number;
  position: number;
}

function becomePerson(fixture: WorkspaceFixture): void {
  Object.assign(fixture.staff.alice, PERSON);
}

describe.each(STORE_KINDS)('erase --game-user-id (%s)', { timeout: 120_000 }, (kind) => {
  let ctx: TestContext;
  let fixture: Fixture & { second: WorkspaceFixture };
  let decided: SubmissionDocument;
  let rejected: SubmissionDocument;
  let other: SubmissionDocument;
  let shiftId: string;
  let deliveries: Array<{ id: string }>;
  let askedNotice: string;
  const erase = (gameUserId: string) =>
    runCli(['erase', '--game-user-id', gameUserId, '--database-url', ctx.database.url]);

  const leaderboard = async (): Promise<LeaderboardEntry[]> => {
    const headers = bearer(fixture.keys.test.secret);
    const res = await ctx.inject({ method: 'GET', url: '/v1/activity/leaderboard?period=week', headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { entries: LeaderboardEntry[] } }).data.entries;
  };
  const minutesOf = (entries: readonly LeaderboardEntry[]) =>
    entries.map(({ staffId, totalSeconds, totalMinutes, completedShifts, position }) => ({
      staffId,
      totalSeconds,
      totalMinutes,
      completedShifts,
      position,
    }));

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = buildFixture({ secondWorkspace: true }) as Fixture & { second: WorkspaceFixture };
    becomePerson(fixture);
    becomePerson(fixture.second);
    const { alice, bob } = fixture.ids.staff;
    fixture.workspace.webhooks = [{ id: newId(), url: 'https://hooks.example.com/erasure', events: ['*'] }];
    addHistory(fixture, {
      shifts: [
        completedShift(fixture, alice, '2026-03-09T10:00:00Z', '2026-03-09T11:30:00Z'),
        completedShift(fixture, bob, '2026-03-10T10:00:00Z', '2026-03-10T11:00:00Z'),
      ],
      notices: [notice(alice, '2026-03-12T00:00:00Z', '2026-03-14T00:00:00Z', 'approved', WRITTEN.noticeReason)],
    });
    const applicant = { ...PERSON };
    decided = submissionDoc({ applicant, answers: { hometown: WRITTEN.answer } });
    rejected = submissionDoc({
      applicant,
      status: 'rejected',
      score: 40,
      reviewerNotes: WRITTEN.provisionedNotes,
      answers: { why: WRITTEN.answer },
    });
    other = submissionDoc();
    fixture.workspace.submissions = [decided, rejected, other];
    await seed(ctx, fixture);

    // Reviewers' decisions, with notes, through the API: recorded commands, events and stored responses.
    const token = await dashboardToken(REVIEWER_USER_ID);
    const decisions = [
      ['mark-under-review', { reviewNote: WRITTEN.markNote }],
      ['review', { score: 80, reviewerNotes: WRITTEN.reviewerNotes }],
      ['accept', { reviewNote: WRITTEN.acceptNote, createStaffProfile: true }],
    ] as const;
    for (const [operation, body] of decisions) {
      const res = await call(ctx.inject, operation, decided.id, { token, body });
      expect(res.statusCode, res.body).toBe(200);
    }

    // An inactivity notice asked for through the chat bot and approved with a note: its answers and webhook
    // bodies carry the reason and the note.
    const asked = await ask(ctx.inject, fixture.keys.test.secret, noticeBody(ctx.clock.now(), 100, 24, WRITTEN.askedReason), {
      chatUserId: PERSON.chatUserId,
    });
    askedNotice = dataOf<NoticeData>(asked).notice.id;
    const approved = await decide(ctx.inject, token, 'approve', askedNotice, { body: { note: WRITTEN.decisionNote } });
    expect(approved.statusCode, approved.body).toBe(200);

    // A shift through the API: its webhook events carry the staff member's name and game user id.
    const shifts = shiftClient(ctx, fixture.keys.test.secret);
    const started = await shifts.start(startBody(fixture));
    expect(started.statusCode, started.body).toBe(200);
    shiftId = (started.json() as { data: { shift: { id: string } } }).data.shift.id;
    ctx.clock.advance(4 * 60_000);
    expect((await shifts.stop(shiftId)).statusCode).toBe(200);

    // Receivers that echoed what they were sent: their answers are kept on the delivery and its attempt.
    deliveries = await ctx.store.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select('d.id')
      .where('e.type', 'like', 'activity.shift.%')
      .orderBy('d.id')
      .execute();
    expect(deliveries).toHaveLength(2);
    const echo = `{"received":"${PERSON.displayName}"}`;
    await ctx.store.write(async (trx) => {
      await trx
        .updateTable('webhook_deliveries')
        .set({ last_status: 200, last_response: echo })
        .where('id', 'in', deliveries.map((d) => d.id))
        .execute();
      await trx
        .insertInto('webhook_attempts')
        .values({
          id: newId(),
          delivery_id: deliveries[0]!.id,
          attempt: 1,
          started_at: ctx.clock.now(),
          duration_ms: 5,
          status: 200,
          error: null,
          response_excerpt: echo,
        })
        .execute();
    });

    // A stored answer that repeats the applicant, as an intake's stored response does.
    await ctx.store.write((trx) =>
      storeResult(trx, {
        scope: `key:${fixture.ids.applicationId}:test`,
        key: 'intake-retry-1',
        fingerprint: 'f'.repeat(64),
        status: 200,
        body: JSON.stringify({ data: { submission: { id: decided.id, status: 'submitted', applicant }, commandId: newId() } }),
        requestId: 'req_00000000000000000001',
        now: ctx.clock.now(),
      }),
    );
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('erases the person everywhere in one run, leaves reports and everyone else exact, and prints counts and ids only', async () => {
    const { alice, bob } = fixture.ids.staff;
    const secondAlice = fixture.second.ids.staff.alice;
    // Every value is somewhere before, so the search below can fail.
    for (const needle of NEEDLES) {
      expect(await columnsContaining(ctx.store, needle), needle).not.toEqual([]);
    }
    const boardBefore = await leaderboard();
    const decidedBefore = await submissionRow(ctx, decided.id);
    const rejectedBefore = await submissionRow(ctx, rejected.id);
    const otherBefore = await submissionRow(ctx, other.id);
    const staffRow = (id: string) => ctx.store.db.selectFrom('staff').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const decisions = () => ctx.store.db.selectFrom('submissions').select(['id', 'status', 'score']).orderBy('id').execute();
    const bobBefore = await staffRow(bob);
    const decisionsBefore = await decisions();

    const res = await erase(PERSON.gameUserId);
    // Nothing on stderr but, on a machine slow enough that the run takes over a second, its progress lines.
    expect(res.stderr.split('\n').filter((line) => line !== '' && !line.startsWith('erase: '))).toEqual([]);
    expect(res.code).toBe(0);
    for (const needle of NEEDLES) expect(res.stdout).not.toContain(needle);
    const output = JSON.parse(res.stdout) as EraseOutput;
    expect(output.counts).toEqual({
      submissions: 2,
      staff: 2,
      inactivityNotices: 2,
      commands: 3,
      events: 3,
      webhookEvents: 4,
      webhookDeliveries: 2,
      webhookAttempts: 1,
      idempotencyRecords: 3,
    });
    expect(output.changed.submissions).toEqual([decided.id, rejected.id].sort());
    expect(output.changed.staff).toEqual([alice, secondAlice].sort());
    expect(output.changed.webhookDeliveries).toEqual(deliveries.map((d) => d.id));
    expect(output.changed.idempotencyRecords).toContainEqual({ scope: `key:${fixture.ids.applicationId}:test`, key: 'intake-retry-1' });
    for (const [kindOf, ids] of Object.entries(output.changed)) {
      expect(ids, kindOf).toHaveLength(output.counts[kindOf] ?? -1);
    }

    // Nothing anywhere still holds the person's identity or what was written about them.
    for (const needle of NEEDLES) {
      expect(await columnsContaining(ctx.store, needle), needle).toEqual([]);
    }

    // Submissions: identity, answers and notes gone; status, score, times and the staff link stay.
    const decidedAfter = await submissionRow(ctx, decided.id);
    const erasedApplicant = { gameUserId: null, gameUsername: null, displayName: null, chatUserId: null };
    expect(decidedAfter).toEqual({
      ...decidedBefore,
      applicant: JSON.stringify(erasedApplicant),
      answers: '{}',
      reviewer_notes: null,
      game_user_id: null,
    });
    expect(decidedAfter.staff_profile_id).toBe(alice);
    expect((await submissionRow(ctx, rejected.id)).status).toBe(rejectedBefore.status);
    expect(await submissionRow(ctx, other.id)).toEqual(otherBefore);
    expect(await decisions()).toEqual(decisionsBefore);

    // Staff profiles: anonymised in both workspaces; the rest of the profile stays; bob untouched.
    const profiles = await ctx.store.db.selectFrom('staff').selectAll().where('id', 'in', [alice, secondAlice]).execute();
    for (const profile of profiles) {
      const alias = `erased-${profile.id}`;
      expect(profile).toMatchObject({
        display_name: alias,
        game_username: alias,
        game_user_id: alias,
        chat_user_id: null,
        status: 'active',
      });
    }
    expect(await staffRow(bob)).toEqual(bobBefore);

    // Reports: the same minutes and positions; the profile shows its new name.
    const boardAfter = await leaderboard();
    expect(minutesOf(boardAfter)).toEqual(minutesOf(boardBefore));
    const aliceRef = { displayName: `erased-${alice}`, gameUserId: `erased-${alice}` };
    expect(boardAfter.find((entry) => entry.staffId === alice)).toMatchObject(aliceRef);
    const headers = bearer(fixture.keys.test.secret);
    const shift = await ctx.inject({ method: 'GET', url: `/v1/activity/shifts/${shiftId}`, headers });
    expect((shift.json() as { data: { shift: unknown } }).data.shift).toMatchObject({
      staff: { id: alice, ...aliceRef },
      minutes: 4,
    });

    // The webhook copies follow the profile; the recorded decisions keep their shape, without notes.
    const bodies = await ctx.store.db
      .selectFrom('webhook_events')
      .select(['type', 'body'])
      .where('id', 'in', output.changed.webhookEvents as string[])
      .execute();
    expect(bodies.map((b) => b.type).sort()).toEqual([
      'activity.shift.ended',
      'activity.shift.started',
      'staff.inactivity_notice.approved',
      'staff.inactivity_notice.requested',
    ]);
    for (const body of bodies.filter((b) => b.type.startsWith('staff.'))) {
      const { notice } = (JSON.parse(body.body) as { data: { notice: { id: string; reason: string; decisionNote: string | null } } }).data;
      expect(notice).toMatchObject({ id: askedNotice, reason: 'erased' });
      expect(notice.decisionNote).toBe(body.type === 'staff.inactivity_notice.approved' ? 'erased' : null);
    }
    const notices = await ctx.store.db.selectFrom('inactivity_notices').select(['reason', 'decision_note']).where('staff_id', '=', alice).execute();
    expect(notices.sort((a, b) => Number(a.decision_note === null) - Number(b.decision_note === null))).toEqual([
      { reason: 'erased', decision_note: 'erased' },
      { reason: 'erased', decision_note: null },
    ]);
    for (const body of bodies.filter((b) => b.type.startsWith('activity.'))) {
      expect(JSON.parse(body.body)).toMatchObject({ data: { staff: { id: alice, ...aliceRef }, shift: { staff: aliceRef } } });
    }
    const commands = await ctx.store.db
      .selectFrom('commands')
      .select(['type', 'payload'])
      .where('submission_id', '=', decided.id)
      .orderBy('created_at')
      .execute();
    expect(commands.map((c) => [c.type, JSON.parse(c.payload)])).toEqual([
      ['application.submission.mark_under_review', { submissionId: decided.id, reviewNote: null }],
      ['application.submission.update_review', { submissionId: decided.id, score: 80, reviewerNotes: null }],
      ['application.submission.accept', { submissionId: decided.id, reviewNote: null, createStaffProfile: true }],
    ]);
    const record = await ctx.store.db
      .selectFrom('idempotency_records')
      .select('response_body')
      .where('key', '=', 'intake-retry-1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(record.response_body ?? 'null')).toMatchObject({
      data: { submission: { id: decided.id, status: 'submitted', applicant: erasedApplicant } },
    });

    // The run is recorded with its counts only.
    const erasures = await ctx.store.db.selectFrom('erasures').selectAll().execute();
    expect(erasures).toHaveLength(1);
    expect(erasures[0]).toMatchObject({ id: output.erasureId });
    expect(JSON.parse(erasures[0]!.changes)).toEqual(output.counts);
    expect(Number(erasures[0]!.ran_at)).toBe(Date.parse(output.ranAt));
  });

  it('a second run changes nothing but records that it ran, with zero counts', async () => {
    const before = await dumpTables(ctx.store, ['erasures']);
    const res = await erase(PERSON.gameUserId);
    expect(res.code, res.stderr).toBe(0);
    const output = JSON.parse(res.stdout) as EraseOutput;
    expect(Object.values(output.counts).every((count) => count === 0)).toBe(true);
    expect(Object.values(output.changed).every((ids) => ids.length === 0)).toBe(true);
    expect(await dumpTables(ctx.store, ['erasures'])).toEqual(before);
    expect(await ctx.store.db.selectFrom('erasures').select('id').execute()).toHaveLength(2);
  });

  it('an id that is nobody\'s changes nothing, even when its digits occur inside other values', async () => {
    const before = await dumpTables(ctx.store, ['erasures']);
    // '1' occurs in other staff members' ids (1002, 3002), in times and in uuids; nobody's id is exactly '1'.
    const res = await erase('1');
    expect(res.code, res.stderr).toBe(0);
    expect(Object.values((JSON.parse(res.stdout) as EraseOutput).counts).every((count) => count === 0)).toBe(true);
    expect(await dumpTables(ctx.store, ['erasures'])).toEqual(before);
  });
});
