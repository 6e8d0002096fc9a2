import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../../helpers/app.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import {
  addSubmissions,
  call,
  DECIDE_ONLY_USER_ID,
  eventsFor,
  MULTI_USER_ID,
  seedReviewFixture,
  staffWithGameUser,
  submissionDoc,
  submissionRow,
  type ReviewFixture,
} from './helpers.ts';

describe.each(STORE_KINDS)('application review: staff profile on accept (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  /** Member of both workspaces with `staff.create`. */
  let withStaffCreate: string;
  /** Member of both workspaces with only `applications.decide`. */
  let withoutStaffCreate: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    // The first workspace keeps createStaffProfileOnAccept false; the second one turns it on.
    fixture = await seedReviewFixture(ctx, (f) => {
      f.second.workspace.settings = { ...f.second.workspace.settings, createStaffProfileOnAccept: true };
      f.second.workspace.members!.push({ userId: DECIDE_ONLY_USER_ID, permissions: ['applications.decide'] });
    });
    withStaffCreate = await dashboardToken(MULTI_USER_ID);
    withoutStaffCreate = await dashboardToken(DECIDE_ONLY_USER_ID);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  /** The workspace whose default is off, or on. */
  const workspace = (setting: 'off' | 'on') => (setting === 'off' ? fixture : fixture.second);

  async function accept(setting: 'off' | 'on', token: string, body: unknown, applicant = submissionDoc()) {
    const target = workspace(setting);
    await addSubmissions(ctx, target.workspace, applicant);
    const res = await call(ctx.inject, 'accept', applicant.id, { token, ...(body === undefined ? {} : { body }) });
    expect(res.statusCode).toBe(200);
    const staff = await staffWithGameUser(ctx, target.ids.workspaceId, applicant.applicant.gameUserId);
    const row = await submissionRow(ctx, applicant.id);
    return { data: res.json().data, staff, row, applicant };
  }

  it('createStaffProfile true with staff.create creates an active profile from the applicant', async () => {
    const { data, staff, row, applicant } = await accept('off', withStaffCreate, { createStaffProfile: true });
    expect(data.staffProfileCreated).toBe(true);
    expect(staff).toHaveLength(1);
    expect(data.staffProfileId).toBe(staff[0]!.id);
    expect(staff[0]).toMatchObject({
      workspace_id: fixture.ids.workspaceId,
      display_name: applicant.applicant.displayName,
      game_user_id: applicant.applicant.gameUserId,
      game_username: applicant.applicant.gameUsername,
      chat_user_id: applicant.applicant.chatUserId,
      status: 'active',
      department_id: null,
      rank: null,
    });
    expect(Number(staff[0]!.created_at)).toBe(DEFAULT_NOW);
    expect(row.staff_profile_id).toBe(staff[0]!.id);
  });

  it('an applicant without a chat user id gets a profile without one', async () => {
    const doc = submissionDoc();
    const applicant = { ...doc, applicant: { ...doc.applicant, chatUserId: null } };
    const { data, staff } = await accept('off', withStaffCreate, { createStaffProfile: true }, applicant);
    expect(data.staffProfileCreated).toBe(true);
    expect(staff[0]!.chat_user_id).toBeNull();
  });

  it('an existing staff profile with the applicant\'s gameUserId is linked, not duplicated', async () => {
    const doc = submissionDoc();
    const applicant = { ...doc, applicant: { ...doc.applicant, gameUserId: fixture.staff.alice.gameUserId } };
    const { data, staff, row } = await accept('off', withStaffCreate, { createStaffProfile: true }, applicant);
    expect(data.staffProfileCreated).toBe(false);
    expect(data.staffProfileId).toBe(fixture.ids.staff.alice);
    expect(staff).toHaveLength(1);
    expect(staff[0]!.display_name).toBe('Alice');
    expect(row.staff_profile_id).toBe(fixture.ids.staff.alice);
  });

  it('a second accepted submission of the same applicant links the profile the first one created', async () => {
    const first = submissionDoc();
    const second = { ...submissionDoc(), applicant: first.applicant };
    const a = await accept('off', withStaffCreate, { createStaffProfile: true }, first);
    const b = await accept('off', withStaffCreate, { createStaffProfile: true }, second);
    expect(a.data.staffProfileCreated).toBe(true);
    expect(b.data.staffProfileCreated).toBe(false);
    expect(b.data.staffProfileId).toBe(a.data.staffProfileId);
    expect(b.staff).toHaveLength(1);
  });

  it('profiles are per workspace: the same game user in another workspace gets its own', async () => {
    const first = submissionDoc();
    const second = { ...submissionDoc(), applicant: first.applicant };
    const a = await accept('off', withStaffCreate, { createStaffProfile: true }, first);
    const b = await accept('on', withStaffCreate, { createStaffProfile: true }, second);
    expect(a.data.staffProfileCreated).toBe(true);
    expect(b.data.staffProfileCreated).toBe(true);
    expect(b.data.staffProfileId).not.toBe(a.data.staffProfileId);
  });

  it('without a profile, staffProfileCreated is false and staffProfileId null (workspace default off)', async () => {
    const { data, staff, row } = await accept('off', withStaffCreate, undefined);
    expect(data).toMatchObject({ staffProfileCreated: false, staffProfileId: null });
    expect(staff).toHaveLength(0);
    expect(row.staff_profile_id).toBeNull();
  });

  it('the workspace default on creates a profile when the caller does not say', async () => {
    const { data, staff } = await accept('on', withStaffCreate, {});
    expect(data.staffProfileCreated).toBe(true);
    expect(data.staffProfileId).toBe(staff[0]!.id);
  });

  it('createStaffProfile false with staff.create overrides the workspace default on', async () => {
    const { data, staff } = await accept('on', withStaffCreate, { createStaffProfile: false });
    expect(data).toMatchObject({ staffProfileCreated: false, staffProfileId: null });
    expect(staff).toHaveLength(0);
  });

  it('a profile created on accept is on the workspace leaderboard at once (rankings kept between reads)', async () => {
    const key = fixture.second.keys.test.secret;
    const read = async () => {
      const res = await ctx.inject({
        method: 'GET',
        url: '/v1/activity/leaderboard?period=week&limit=100',
        headers: { authorization: `Bearer ${key}` },
      });
      expect(res.statusCode).toBe(200);
      return (res.json() as { data: { entries: Array<{ staffId: string }> } }).data.entries.map((e) => e.staffId);
    };
    const before = await read();
    expect(await read()).toEqual(before);
    const { data } = await accept('on', withStaffCreate, { createStaffProfile: true });
    expect(data.staffProfileCreated).toBe(true);
    const after = await read();
    expect(after).toHaveLength(before.length + 1);
    expect(after).toContain(data.staffProfileId);
  });

  it('createStaffProfile true without staff.create is ignored: the workspace default off decides', async () => {
    const { data, staff } = await accept('off', withoutStaffCreate, { createStaffProfile: true });
    expect(data).toMatchObject({ staffProfileCreated: false, staffProfileId: null });
    expect(staff).toHaveLength(0);
  });

  it('createStaffProfile false without staff.create is ignored: the workspace default on decides', async () => {
    const { data, staff } = await accept('on', withoutStaffCreate, { createStaffProfile: false });
    expect(data.staffProfileCreated).toBe(true);
    expect(staff).toHaveLength(1);
  });

  it('the accepted event records the staff profile outcome', async () => {
    const { data, applicant } = await accept('off', withStaffCreate, { createStaffProfile: true });
    const [event] = await eventsFor(ctx, applicant.id);
    expect(JSON.parse(event!.payload)).toEqual({
      submissionId: applicant.id,
      status: 'accepted',
      acceptedAt: new Date(DEFAULT_NOW).toISOString(),
      reviewNote: null,
      staffProfileCreated: true,
      staffProfileId: data.staffProfileId,
    });
  });

  it('reject never creates a staff profile, whatever the workspace default', async () => {
    const [doc] = await addSubmissions(ctx, fixture.second.workspace, submissionDoc());
    const res = await call(ctx.inject, 'reject', doc!.id, { token: withStaffCreate });
    expect(res.statusCode).toBe(200);
    expect(await staffWithGameUser(ctx, fixture.second.ids.workspaceId, doc!.applicant.gameUserId)).toHaveLength(0);
  });
});
