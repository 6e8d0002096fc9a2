import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { insertSubmissionUnlessPending } from '../../../src/features/applications/intake/repository.ts';
import { newId } from '../../../src/shared/ids.ts';
import type { Store } from '../../../src/db/connect.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { checkedInject, type Inject } from '../../helpers/contract.ts';
import { postgresAvailable, STORE_KINDS } from '../../helpers/stores.ts';
import { commandsFor, errorCode, eventsFor } from './helpers.ts';
import { freshGameUserId, intakeBody, seedIntakeFixture, submit, useIntakeWorld, type IntakeFixture } from './intake-helpers.ts';

/** The races, run against one or two app instances (`injects` are used round-robin). */
function races(setup: () => { ctx: TestContext; fixture: IntakeFixture; injects: Inject[] }) {
  it('identical submissions racing with different idempotency keys create one; the others get 409 submission_pending', async () => {
    const { ctx, fixture, injects } = setup();
    for (let round = 0; round < 5; round += 1) {
      const gameUserId = freshGameUserId();
      const responses = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          submit(injects[i % injects.length]!, fixture.keys.live.secret, fixture.form.id, intakeBody(gameUserId)),
        ),
      );
      const ok = responses.filter((r) => r.statusCode === 200);
      expect(ok, responses.map((r) => r.body).join('\n')).toHaveLength(1);
      const winner: string = ok[0]!.json().data.submission.id;
      for (const loser of responses.filter((r) => r !== ok[0])) {
        expect(loser.statusCode, loser.body).toBe(409);
        expect(errorCode(loser)).toBe('submission_pending');
        expect(loser.json().error.details).toEqual({ submissionId: winner });
      }
      const rows = await ctx.store.db.selectFrom('submissions').select('id').where('game_user_id', '=', gameUserId).execute();
      expect(rows.map((r) => r.id)).toEqual([winner]);
      expect(await commandsFor(ctx, winner)).toHaveLength(1);
      expect(await eventsFor(ctx, winner)).toHaveLength(1);
    }
  });

  it('submissions of different applicants at once all succeed', async () => {
    const { fixture, injects } = setup();
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        submit(injects[i % injects.length]!, fixture.keys.live.secret, fixture.form.id, intakeBody(freshGameUserId())),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
  });
}

describe.each(STORE_KINDS)('application intake: racing submissions on one instance (%s)', (kind) => {
  const world = useIntakeWorld(kind);
  races(() => ({ ctx: world.ctx, fixture: world.fixture, injects: [world.ctx.inject] }));

  it('the database refuses a second pending submission of one applicant to one form: the insert does nothing', async () => {
    const { ctx, fixture } = world;
    const gameUserId = freshGameUserId();
    const row = (status: string) => ({
      id: newId(),
      workspace_id: fixture.ids.workspaceId,
      status,
      score: null,
      reviewer_notes: null,
      applicant: JSON.stringify({ gameUserId }),
      answers: '[]',
      created_at: ctx.clock.now(),
      reviewed_at: null,
      accepted_at: null,
      rejected_at: null,
      staff_profile_id: null,
      updated_at: ctx.clock.now(),
      form_id: fixture.form.id,
      environment: 'live' as const,
      game_user_id: gameUserId,
    });
    const insert = (status: string) => ctx.store.write((trx) => insertSubmissionUnlessPending(trx, row(status)));
    expect(await insert('submitted')).toBe(true);
    expect(await insert('under_review')).toBe(false);
    expect(await insert('submitted')).toBe(false);
    // Decided submissions are not pending: any number of them.
    expect(await insert('rejected')).toBe(true);
    expect(await insert('accepted')).toBe(true);
  });
});

describe.runIf(postgresAvailable)('application intake: racing submissions on two instances sharing one database (postgres)', () => {
  let ctx: TestContext;
  let fixture: IntakeFixture;
  let secondStore: Store;
  let secondApp: FastifyInstance;
  let secondInject: Inject;

  beforeAll(async () => {
    ctx = await createTestContext('postgres');
    fixture = await seedIntakeFixture(ctx);
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

  races(() => ({ ctx, fixture, injects: [ctx.inject, secondInject] }));

  it('an insert that meets another instance\'s uncommitted pending submission waits for it, then answers 409 submission_pending', async () => {
    const gameUserId = freshGameUserId();
    const otherId = newId();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted: () => void = () => undefined;
    const insertedNow = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    // Another instance's transaction holds a pending submission of the applicant, not yet committed: the intake's
    // own check cannot see it, so only the unique index stops the second insert.
    const other = secondStore.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('submissions')
        .values({
          id: otherId,
          workspace_id: fixture.ids.workspaceId,
          status: 'submitted',
          score: null,
          reviewer_notes: null,
          applicant: JSON.stringify({ gameUserId }),
          answers: '[]',
          created_at: ctx.clock.now(),
          reviewed_at: null,
          accepted_at: null,
          rejected_at: null,
          staff_profile_id: null,
          updated_at: ctx.clock.now(),
          form_id: fixture.form.id,
          environment: 'live' as const,
          game_user_id: gameUserId,
        })
        .execute();
      inserted();
      await held;
    });
    await insertedNow;
    const response = submit(ctx.inject, fixture.keys.live.secret, fixture.form.id, intakeBody(gameUserId));
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await other;
    const res = await response;
    expect(res.statusCode, res.body).toBe(409);
    expect(errorCode(res)).toBe('submission_pending');
    expect(res.json().error.details).toEqual({ submissionId: otherId });
    const rows = await ctx.store.db.selectFrom('submissions').select('id').where('game_user_id', '=', gameUserId).execute();
    expect(rows.map((r) => r.id)).toEqual([otherId]);
  });
});
