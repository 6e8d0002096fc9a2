import { describe, expect, it } from 'vitest';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { GUILD_ID, REVIEWER_USER_ID, SECOND_GUILD_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { command, interactionId, press, type DiscordMessage } from './helpers.ts';
import { READONLY_CHAT, REVIEWER_CHAT, useDiscordWorld } from './world.ts';

const EPHEMERAL = 64;

function expectMessage(body: DiscordMessage, type: number, flags: number | undefined) {
  expect(body.type).toBe(type);
  expect(body.data?.allowed_mentions).toEqual({ parse: [] });
  expect(body.data?.flags).toBe(flags);
  return body.data!.content;
}

describe.each(STORE_KINDS)('Discord commands (%s)', (kind) => {
  const world = useDiscordWorld(kind);
  const alice = () => ({ guildId: GUILD_ID, userId: world.fixture.staff.alice.chatUserId!, name: 'Alice D' });
  const bob = () => ({ guildId: GUILD_ID, userId: world.fixture.staff.bob.chatUserId!, name: 'Bob D' });
  const reviewer = { guildId: GUILD_ID, userId: REVIEWER_CHAT, name: 'Rita' };
  const readonly = { guildId: GUILD_ID, userId: READONLY_CHAT, name: 'Reed' };
  const notices = () => world.ctx.store.db.selectFrom('inactivity_notices').selectAll().where('origin', '=', 'api').execute();

  it('/activity answers the staff member\'s week, ephemeral; a Discord user who is not staff gets a sentence', async () => {
    world.ctx.clock.set(DEFAULT_NOW);
    const mine = await world.send(command(alice(), 'activity'));
    expect(mine.status).toBe(200);
    expect(expectMessage(mine.body, 4, EPHEMERAL)).toContain('**This week**: 0 minutes of 180 minutes required (0%).');
    const stranger = await world.send(command({ guildId: GUILD_ID, userId: '123' }, 'activity'));
    expect(expectMessage(stranger.body, 4, EPHEMERAL)).toBe('You are not on the staff of this community, so there is nothing to show here.');
  });

  it('a command from a server no workspace of the application is, or from a direct message, says where it works', async () => {
    const elsewhere = await world.send(command({ guildId: '555', userId: world.fixture.staff.alice.chatUserId! }, 'activity'));
    expect(expectMessage(elsewhere.body, 4, EPHEMERAL)).toMatch(/works only in the Discord server/);
    const dm = command(alice(), 'activity') as Record<string, unknown>;
    delete dm.guild_id;
    delete dm.member;
    Object.assign(dm, { user: { id: world.fixture.staff.alice.chatUserId } });
    expect(expectMessage((await world.send(dm)).body, 4, EPHEMERAL)).toMatch(/works only in the Discord server/);
  });

  it('the guild picks the workspace among the application\'s: the second server answers for its own staff', async () => {
    const second = world.fixture.second.staff.alice.chatUserId!;
    const res = await world.send(command({ guildId: SECOND_GUILD_ID, userId: second }, 'activity'));
    expect(expectMessage(res.body, 4, EPHEMERAL)).toContain('**This week**');
    // The first workspace's staff member is nobody in the second server.
    const crossed = await world.send(command({ guildId: SECOND_GUILD_ID, userId: world.fixture.staff.alice.chatUserId! }, 'activity'));
    expect(expectMessage(crossed.body, 4, EPHEMERAL)).toMatch(/not on the staff/);
  });

  it('/leaderboard and /onduty are public; names are shown as text', async () => {
    const board = await world.send(command(alice(), 'leaderboard', { period: 'month' }));
    const content = expectMessage(board.body, 4, undefined);
    expect(content).toMatch(/^\*\*Leaderboard, this month\*\*\n1\. /);
    expect(content).toContain('Alice: 0 minutes');
    const all = await world.send(command(alice(), 'leaderboard', { period: 'all' }));
    expect(expectMessage(all.body, 4, undefined)).toMatch(/the last 366 days/);
    const onduty = await world.send(command(alice(), 'onduty'));
    expect(expectMessage(onduty.body, 4, undefined)).toBe('**On duty**: nobody is on shift now.');
  });

  it('/loa request asks once per interaction: a repeat gets the first answer and asks nothing more', async () => {
    world.ctx.clock.set(DEFAULT_NOW);
    const id = interactionId();
    const ask = command(bob(), 'loa', { start: '2026-03-20', end: '2026-03-21', reason: 'Exams @everyone' }, 'request', id);
    const first = await world.send(ask);
    const content = expectMessage(first.body, 4, EPHEMERAL);
    expect(content).toMatch(/^Asked: time off 20 Mar 2026 to 21 Mar 2026/);
    const again = await world.send(ask);
    expect(again.body).toEqual(first.body);
    const rows = (await notices()).filter((n) => n.staff_id === world.fixture.ids.staff.bob);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'pending', environment: 'live', reason: 'Exams @everyone' });
    expect(Number(rows[0]!.starts_at)).toBe(Date.parse('2026-03-20T00:00:00Z'));
    expect(Number(rows[0]!.ends_at)).toBe(Date.parse('2026-03-22T00:00:00Z'));
    const recorded = await world.ctx.store.db.selectFrom('commands').selectAll().where('idempotency_key', '=', id).execute();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ type: 'staff.inactivity_notice.request', actor_type: 'api_key', actor_id: `discord:${world.discord.applicationId}` });
  });

  it('/loa request refusals are sentences: an unreadable date, an overlap, the end before the start', async () => {
    const refusal = async (options: Record<string, string>) =>
      expectMessage((await world.send(command(bob(), 'loa', { reason: 'r', ...options }, 'request'))).body, 4, EPHEMERAL);
    expect(await refusal({ start: '2026-13-01', end: '2026-03-21' })).toBe('I could not read "2026-13-01" as a date; write it like 2026-12-24.');
    expect(await refusal({ start: '2026-03-21', end: '2026-03-22' })).toMatch(/^You already have time off during these dates/);
    expect(await refusal({ start: '2026-03-25', end: '2026-03-24' })).toBe('The last day must not come before the first day.');
    expect(await refusal({ start: '2026-02-01', end: '2026-02-02' })).toMatch(/at most 7 days ago/);
  });

  it('/loa list shows ids as /loa cancel takes them; cancelling by the first 8 characters', async () => {
    const list = expectMessage((await world.send(command(bob(), 'loa', {}, 'list'))).body, 4, EPHEMERAL);
    const [row] = (await notices()).filter((n) => n.staff_id === world.fixture.ids.staff.bob);
    const prefix = row!.id.slice(0, 8);
    expect(list).toContain(`\`${prefix}\` 20 Mar 2026 to 21 Mar 2026: waiting for a manager`);
    const cancelled = await world.send(command(bob(), 'loa', { notice: prefix }, 'cancel'));
    expect(expectMessage(cancelled.body, 4, EPHEMERAL)).toBe('Cancelled: time off 20 Mar 2026 to 21 Mar 2026.');
    const again = await world.send(command(bob(), 'loa', { notice: prefix }, 'cancel'));
    expect(expectMessage(again.body, 4, EPHEMERAL)).toBe('That request is already cancelled.');
    const unknown = await world.send(command(bob(), 'loa', { notice: 'ffffffff' }, 'cancel'));
    expect(expectMessage(unknown.body, 4, EPHEMERAL)).toMatch(/^You have no time off with the id "ffffffff"/);
  });

  it('/timeoff pending is for members with notices.decide; a press by a member without it changes nothing', async () => {
    await world.send(command(bob(), 'loa', { start: '2026-03-27', end: '2026-03-27', reason: 'Dentist' }, 'request'));
    const refused = await world.send(command(readonly, 'timeoff', {}, 'pending'));
    expect(expectMessage(refused.body, 4, EPHEMERAL)).toBe('Only managers who may decide time off can do this.');
    const list = await world.send(command(reviewer, 'timeoff', {}, 'pending'));
    expect(expectMessage(list.body, 4, EPHEMERAL)).toContain('**Bob**, 27 Mar 2026: Dentist');
    const [pending] = (await notices()).filter((n) => n.status === 'pending');
    const buttons = list.body.data!.components![0]!.components;
    expect(buttons.map((b) => b.label)).toEqual(['Approve', 'Deny']);
    const denied = await world.send(press(readonly, buttons[0]!.custom_id!));
    expect(expectMessage(denied.body, 4, EPHEMERAL)).toBe('Only managers who may decide time off can do this.');
    const still = await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', pending!.id).executeTakeFirstOrThrow();
    expect(still.status).toBe('pending');
  });

  it('a press decides once, shows who decided and removes that notice\'s buttons; a later press changes nothing', async () => {
    const [pending] = (await notices()).filter((n) => n.status === 'pending');
    const approve = `notice:approve:${pending!.id}`;
    const id = interactionId();
    const decided = await world.send(press(reviewer, approve, id));
    const content = expectMessage(decided.body, 7, undefined);
    expect(content).toMatch(/^Approved by Rita \(user-reviewer\): time off 27 Mar 2026\./);
    expect(JSON.stringify(decided.body.data!.components)).not.toContain(pending!.id);
    expect((await world.send(press(reviewer, approve, id))).body).toEqual(decided.body);
    const row = await world.ctx.store.db.selectFrom('inactivity_notices').selectAll().where('id', '=', pending!.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'approved', decided_by: REVIEWER_USER_ID });
    const late = await world.send(press(reviewer, `notice:deny:${pending!.id}`));
    expect(expectMessage(late.body, 7, undefined)).toMatch(/^That notice was already approved; nothing was changed\./);
    const after = await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', pending!.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('approved');
    const decisions = await world.ctx.store.db.selectFrom('commands').select('type').where('type', 'like', '%approve').execute();
    expect(decisions).toHaveLength(1);
  });

  it('a press in one server on a notice of another workspace changes nothing', async () => {
    const secondStaff = world.fixture.second.staff.bob.chatUserId!;
    await world.send(command({ guildId: SECOND_GUILD_ID, userId: secondStaff }, 'loa', { start: '2026-03-27', end: '2026-03-27', reason: 'Trip' }, 'request'));
    const [other] = (await notices()).filter((n) => n.workspace_id === world.fixture.second.ids.workspaceId);
    // The dates are the days of the second workspace's time zone (SECOND_TIME_ZONE: 4 hours behind UTC then).
    expect([Number(other!.starts_at), Number(other!.ends_at)]).toEqual([Date.parse('2026-03-27T04:00:00Z'), Date.parse('2026-03-28T04:00:00Z')]);
    const res = await world.send(press(reviewer, `notice:approve:${other!.id}`));
    expect(expectMessage(res.body, 4, EPHEMERAL)).toBe('That notice is not one of this server\'s; nothing was changed.');
    const row = await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', other!.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
  });

  it('/review gives a member a private sign-in link; anyone else a sentence', async () => {
    const link = await world.send(command(reviewer, 'review'));
    expect(expectMessage(link.body, 4, EPHEMERAL)).toMatch(/^Your console sign-in link \(private, usable once, for 10 minutes\): http.*\/console\/sign-in#code=[0-9A-Za-z]{43}$/);
    const staff = await world.send(command(alice(), 'review'));
    expect(expectMessage(staff.body, 4, EPHEMERAL)).toMatch(/^Only members of this community's team can open the console/);
  });
});
