import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Store } from '../../../src/db/connect.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { checkedInject, type Inject } from '../../helpers/contract.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { postgresAvailable, STORE_KINDS } from '../../helpers/stores.ts';
import {
  addSubmission,
  call,
  commandsFor,
  errorCode,
  eventsFor,
  newKey,
  seedReviewFixture,
  staffWithGameUser,
  submissionDoc,
  addSubmissions,
  submissionRow,
  type ReviewFixture,
  useReviewWorld,
} from './helpers.ts';


function statuses(responses: LightMyRequestResponse[]): number[] {
  return responses.map((r) => r.statusCode).sort();
}

/** The races, run against one or two app instances (`injects` are used round-robin). */
function races(setup: () => { ctx: TestContext; fixture: ReviewFixture; injects: Inject[]; token: string }) {
  it('ten identical accepts with one key at once produce one state change, one command and one event', async () => {
    const { ctx, fixture, injects, token } = setup();
    const [doc] = await addSubmissions(ctx, fixture.workspace, submissionDoc());
    const id = doc!.id;
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(injects[i % injects.length]!, 'accept', id, { token, key, body: { createStaffProfile: true } }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 200);
    const inFlight = responses.filter((r) => r.statusCode === 409);
    expect(ok.length + inFlight.length).toBe(10);
    for (const r of inFlight) expect(errorCode(r)).toBe('idempotency_request_in_progress');
    expect(ok.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    const bodies = new Set(ok.map((r) => JSON.stringify(r.json())));
    expect(bodies.size).toBe(1);

    expect(await commandsFor(ctx, id)).toHaveLength(1);
    expect(await eventsFor(ctx, id)).toHaveLength(1);
    const row = await submissionRow(ctx, id);
    expect(row.status).toBe('accepted');
    const staff = await staffWithGameUser(ctx, fixture.ids.workspaceId, doc!.applicant.gameUserId);
    expect(staff).toHaveLength(1);
    expect(row.staff_profile_id).toBe(staff[0]!.id);

    // Once the first request has finished, the key replays.
    const later = await call(injects[0]!, 'accept', id, { token, key, body: { createStaffProfile: true } });
    expect(later.statusCode).toBe(200);
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(JSON.stringify(later.json())).toBe([...bodies][0]);
  });

  it('accept racing reject with different keys: exactly one wins, the other is 422 submission_finalized', async () => {
    const { ctx, fixture, injects, token } = setup();
    for (let round = 0; round < 5; round += 1) {
      const id = await addSubmission(ctx, fixture.workspace, { status: round % 2 === 0 ? 'submitted' : 'under_review' });
      const [accept, reject] = await Promise.all([
        call(injects[0]!, 'accept', id, { token }),
        call(injects[1 % injects.length]!, 'reject', id, { token }),
      ]);
      expect(statuses([accept, reject])).toEqual([200, 422]);
      const loser = accept.statusCode === 200 ? reject : accept;
      expect(errorCode(loser)).toBe('submission_finalized');
      const row = await submissionRow(ctx, id);
      expect(row.status).toBe(accept.statusCode === 200 ? 'accepted' : 'rejected');
      expect(loser.json().error.details.status).toBe(row.status);
      const commands = await commandsFor(ctx, id);
      expect(commands).toHaveLength(1);
      expect(commands[0]!.type).toBe(
        accept.statusCode === 200 ? 'application.submission.accept' : 'application.submission.reject',
      );
      expect(await eventsFor(ctx, id)).toHaveLength(1);
    }
  });

  it('two mark-under-review with different keys: one wins, the other is 409 invalid_state_transition', async () => {
    const { ctx, fixture, injects, token } = setup();
    for (let round = 0; round < 3; round += 1) {
      const id = await addSubmission(ctx, fixture.workspace);
      const responses = await Promise.all([
        call(injects[0]!, 'mark-under-review', id, { token }),
        call(injects[1 % injects.length]!, 'mark-under-review', id, { token }),
      ]);
      expect(statuses(responses)).toEqual([200, 409]);
      expect(errorCode(responses.find((r) => r.statusCode === 409)!)).toBe('invalid_state_transition');
      expect(await commandsFor(ctx, id)).toHaveLength(1);
    }
  });

  it('a review update racing accept never changes a final submission', async () => {
    const { ctx, fixture, injects, token } = setup();
    for (let round = 0; round < 3; round += 1) {
      const id = await addSubmission(ctx, fixture.workspace, { score: 1 });
      const [patch, accept] = await Promise.all([
        call(injects[0]!, 'review', id, { token, body: { score: 99 } }),
        call(injects[1 % injects.length]!, 'accept', id, { token }),
      ]);
      expect(accept.statusCode).toBe(200);
      const row = await submissionRow(ctx, id);
      if (patch.statusCode === 200) {
        expect(row.score).toBe(99);
        expect(await commandsFor(ctx, id)).toHaveLength(2);
      } else {
        expect(patch.statusCode).toBe(422);
        expect(errorCode(patch)).toBe('submission_finalized');
        expect(row.score).toBe(1);
        expect(await commandsFor(ctx, id)).toHaveLength(1);
      }
    }
  });

  it('two accepts of one applicant\'s submissions at once create one staff profile', async () => {
    const { ctx, fixture, injects, token } = setup();
    const first = submissionDoc();
    const second = { ...submissionDoc(), applicant: first.applicant };
    await addSubmissions(ctx, fixture.workspace, first, second);
    const responses = await Promise.all([
      call(injects[0]!, 'accept', first.id, { token, body: { createStaffProfile: true } }),
      call(injects[1 % injects.length]!, 'accept', second.id, { token, body: { createStaffProfile: true } }),
    ]);
    expect(statuses(responses)).toEqual([200, 200]);
    const staff = await staffWithGameUser(ctx, fixture.ids.workspaceId, first.applicant.gameUserId);
    expect(staff).toHaveLength(1);
    const data = responses.map((r) => r.json().data);
    expect(data.map((d) => d.staffProfileId)).toEqual([staff[0]!.id, staff[0]!.id]);
    expect(data.filter((d) => d.staffProfileCreated)).toHaveLength(1);
  });
}

describe.each(STORE_KINDS)('application review: concurrency on one instance (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  let token: string;

  const world = useReviewWorld(kind);
  beforeAll(() => {
    ({ ctx, fixture, token } = world);
  });

  races(() => ({ ctx, fixture, injects: [ctx.inject], token }));
});

describe.runIf(postgresAvailable)('application review: concurrency across two instances sharing one database (postgres)', () => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  let token: string;
  let secondStore: Store;
  let secondApp: FastifyInstance;
  let secondInject: Inject;

  beforeAll(async () => {
    ctx = await createTestContext('postgres');
    fixture = await seedReviewFixture(ctx);
    token = await dashboardToken(REVIEWER_USER_ID);
    secondStore = ctx.database.open();
    secondApp = await buildApp({ config: ctx.config, store: secondStore, clock: ctx.clock, logger: false });
    await secondApp.ready();
    secondInject = await checkedInject(secondApp);
  });
  afterAll(async () => {
    await secondApp?.close();
    await secondStore?.close();
    await ctx?.close();
  });

  races(() => ({ ctx, fixture, injects: [ctx.inject, secondInject], token }));
});
