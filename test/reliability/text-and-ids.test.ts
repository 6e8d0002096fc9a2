/**
 * What a request's text means is the same on both stores:
 * - text that is not Unicode (an unpaired UTF-16 surrogate such as `"srv-\ud800"`, or body bytes that are not
 *   UTF-8) is rejected with 400 validation_failed and changes nothing, as U+0000 is; a paired surrogate (an emoji)
 *   is accepted. (Query strings and headers cannot carry such text: a percent-escape that is not UTF-8 is read as
 *   the characters sent, and header values are bytes.)
 * - a uuid names the same thing in any case, in every path and query parameter that carries one: shift ids as
 *   submission ids, cursors and filters.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { bearer } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { businessSnapshot, changedTables, seedWorld, type World } from './world.ts';

interface ErrorBody {
  readonly error: { readonly code: string; readonly details?: { readonly issues?: ReadonlyArray<{ path: string; message: string }> } };
}

describe.each(STORE_KINDS)('request text and ids (%s)', (kind) => {
  let ctx: TestContext;
  let world: World;
  let sequence = 0;
  const key = () => `text-and-ids-${(sequence += 1)}`;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedWorld(ctx);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** Sends the request; expects 400 validation_failed naming `path`, and no change to any business table. */
  async function expectRejectedText(request: InjectOptions, path: string): Promise<void> {
    const before = await businessSnapshot(ctx.store.db);
    const res = await ctx.inject(request);
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<ErrorBody>();
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details?.issues?.map((issue) => issue.path)).toEqual([path]);
    expect(changedTables(before, await businessSnapshot(ctx.store.db))).toEqual([]);
  }

  const startRequest = (serverIdJson: string): InjectOptions => ({
    method: 'POST',
    url: '/v1/activity/shifts/start',
    headers: { ...bearer(world.a.keys.test.secret), 'idempotency-key': key(), 'content-type': 'application/json' },
    // Written by hand: the escapes are sent exactly as a client would write them.
    payload: `{"gameUserId":"${world.a.staff.carol.gameUserId}","universeId":"42","placeId":"7","serverId":${serverIdJson}}`,
  });

  describe('text that is not Unicode', () => {
    it('a start with "serverId":"srv-\\ud800" (an unpaired high surrogate) is 400 validation_failed', async () => {
      await expectRejectedText(startRequest('"srv-\\ud800"'), 'body.serverId');
    });

    it('an unpaired low surrogate, and a reversed pair, are 400 validation_failed', async () => {
      await expectRejectedText(startRequest('"srv-\\udc00"'), 'body.serverId');
      await expectRejectedText(startRequest('"srv-\\ude00\\ud83d"'), 'body.serverId');
    });

    it('a heartbeat naming a server with an unpaired surrogate is 400, not a server_mismatch of one store', async () => {
      await expectRejectedText(
        {
          method: 'POST',
          url: `/v1/activity/shifts/${world.shifts.aTest}/heartbeat`,
          headers: { ...bearer(world.a.keys.test.secret), 'idempotency-key': key(), 'content-type': 'application/json' },
          payload: '{"serverId":"srv-\\ud800"}',
        },
        'body.serverId',
      );
    });

    it('review notes with an unpaired surrogate are 400; with an emoji (a paired surrogate) they are stored', async () => {
      const review = (notesJson: string): InjectOptions => ({
        method: 'PATCH',
        url: `/v1/applications/submissions/${world.submissions.a.underReview}/review`,
        headers: { ...bearer(world.tokens.reviewer), 'idempotency-key': key(), 'content-type': 'application/json' },
        payload: `{"reviewerNotes":${notesJson}}`,
      });
      await expectRejectedText(review('"fine \\ud83d"'), 'body.reviewerNotes');
      const ok = await ctx.inject(review('"fine \\ud83d\\ude00"'));
      expect(ok.statusCode, ok.body).toBe(200);
      const row = await ctx.store.db
        .selectFrom('submissions')
        .select('reviewer_notes')
        .where('id', '=', world.submissions.a.underReview)
        .executeTakeFirstOrThrow();
      expect(row.reviewer_notes).toBe('fine \u{1f600}');
    });

    it('a body whose bytes are not UTF-8 is 400 validation_failed (not read with U+FFFD in their place)', async () => {
      const before = await businessSnapshot(ctx.store.db);
      const res = await ctx.inject({
        ...startRequest('"srv-X"'),
        // "srv-" followed by the three bytes that would encode U+D800 (not UTF-8), in place of X.
        payload: Buffer.concat([
          Buffer.from(`{"gameUserId":"${world.a.staff.carol.gameUserId}","universeId":"42","placeId":"7","serverId":"srv-`),
          Buffer.from([0xed, 0xa0, 0x80]),
          Buffer.from('"}'),
        ]),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json<ErrorBody>().error.code).toBe('validation_failed');
      expect(changedTables(before, await businessSnapshot(ctx.store.db))).toEqual([]);
    });
  });

  describe('uuids in any case', () => {
    const upper = (id: string) => id.toUpperCase();

    it('GET /v1/activity/shifts/{id in upper case} finds the shift', async () => {
      const res = await ctx.inject({
        method: 'GET',
        url: `/v1/activity/shifts/${upper(world.shifts.aTest)}`,
        headers: bearer(world.a.keys.test.secret),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ data: { shift: { id: string } } }>().data.shift.id).toBe(world.shifts.aTest);
    });

    it('a heartbeat and a stop on the upper-case id apply to the shift', async () => {
      const headers = { ...bearer(world.a.keys.test.secret), 'content-type': 'application/json' };
      const heartbeat = await ctx.inject({
        method: 'POST',
        url: `/v1/activity/shifts/${upper(world.shifts.aBob)}/heartbeat`,
        headers: { ...headers, 'idempotency-key': key() },
        payload: '{}',
      });
      expect(heartbeat.statusCode, heartbeat.body).toBe(200);
      expect(heartbeat.json<{ data: { shift: { id: string } } }>().data.shift.id).toBe(world.shifts.aBob);
      const stop = await ctx.inject({
        method: 'POST',
        url: `/v1/activity/shifts/${upper(world.shifts.aBob)}/stop`,
        headers: { ...headers, 'idempotency-key': key() },
        payload: '{}',
      });
      expect(stop.statusCode, stop.body).toBe(200);
      const row = await ctx.store.db
        .selectFrom('shifts')
        .select(['status', 'end_reason'])
        .where('id', '=', world.shifts.aBob)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'completed', end_reason: 'manual' });
    });

    it('a retry under the same key may spell the shift id in either case: it is replayed, not refused', async () => {
      const headers = { ...bearer(world.a.keys.test.secret), 'content-type': 'application/json' };
      const sameKey = key();
      const first = await ctx.inject({
        method: 'POST',
        url: `/v1/activity/shifts/${world.shifts.aTest}/heartbeat`,
        headers: { ...headers, 'idempotency-key': sameKey },
        payload: '{}',
      });
      expect(first.statusCode, first.body).toBe(200);
      const retry = await ctx.inject({
        method: 'POST',
        url: `/v1/activity/shifts/${upper(world.shifts.aTest)}/heartbeat`,
        headers: { ...headers, 'idempotency-key': sameKey },
        payload: '{}',
      });
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      expect(retry.json()).toEqual(first.json());
    });

    it('a submission id in upper case is found, as before', async () => {
      const res = await ctx.inject({
        method: 'POST',
        url: `/v1/applications/submissions/${upper(world.submissions.a.submitted[0]!)}/mark-under-review`,
        headers: { ...bearer(world.tokens.reviewer), 'idempotency-key': key() },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<{ data: { submissionId: string } }>().data.submissionId).toBe(world.submissions.a.submitted[0]);
    });

    it('the active list cursor gives the same next page with its id in upper case', async () => {
      const list = (query: string) =>
        ctx.inject({ method: 'GET', url: `/v1/activity/shifts/active?${query}`, headers: bearer(world.a.keys.test.secret) });
      type Page = { data: { shifts: Array<{ id: string }>; nextCursor: { cursorStartedAt: string; cursorId: string } | null } };
      const first = (await list('limit=1')).json<Page>().data;
      expect(first.nextCursor).not.toBeNull();
      const { cursorStartedAt, cursorId } = first.nextCursor!;
      const at = encodeURIComponent(cursorStartedAt);
      const lower = await list(`limit=1&cursorStartedAt=${at}&cursorId=${cursorId}`);
      const upperCase = await list(`limit=1&cursorStartedAt=${at}&cursorId=${upper(cursorId)}`);
      expect(upperCase.statusCode, upperCase.body).toBe(200);
      expect(upperCase.json<Page>().data).toEqual(lower.json<Page>().data);
      expect(lower.json<Page>().data.shifts.map((s) => s.id)).not.toContain(first.shifts[0]!.id);
    });

    it('the leaderboard reads departmentId in any case, as before', async () => {
      const board = (query: string) =>
        ctx.inject({ method: 'GET', url: `/v1/activity/leaderboard?${query}`, headers: bearer(world.a.keys.test.secret) });
      const department = world.a.ids.departments.moderation;
      const lower = await board(`departmentId=${department}&limit=1`);
      const upperCase = await board(`departmentId=${upper(department)}&limit=1`);
      expect(upperCase.statusCode, upperCase.body).toBe(200);
      expect(upperCase.json<{ data: unknown }>().data).toEqual(lower.json<{ data: unknown }>().data);
    });
  });
});
