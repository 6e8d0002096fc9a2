import { afterEach, describe, expect, it } from 'vitest';
import { startCli } from '../helpers/cli.ts';
import { buildFixture, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS } from '../helpers/stores.ts';
import { provisionWithCli } from '../clients/application-centre.ts';
import { command, discordApplication, press, signedInteraction, type DiscordMessage } from '../features/discord/helpers.ts';

/**
 * Discord, built in, through a real gateway process on each store: the test plays Discord, holding the
 * application's private key and signing every interaction; the gateway holds the public key from the document.
 */

const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const MANAGER_CHAT = '7001';

describe.each(STORE_KINDS)('Discord from /loa request to a lowered requirement (%s)', (kind) => {
  it('a staff member asks with /loa request, a manager sees it in /timeoff pending and presses Approve, /activity shows the lowered requirement; refusals first', async () => {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.drop());
    const discord = discordApplication();
    const fixture = buildFixture();
    fixture.workspace.discord = { applicationId: discord.applicationId, publicKey: discord.publicKey };
    fixture.workspace.members = [
      { userId: REVIEWER_USER_ID, permissions: ['notices.decide'], chatUserId: MANAGER_CHAT },
      { userId: 'user-helper', permissions: [], chatUserId: '7002' },
    ];
    await provisionWithCli(database, fixture.document);
    const server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
    cleanup.push(async () => expect(await server.stop('SIGTERM')).toBe(0));

    const send = async (interaction: Record<string, unknown>, options: { timestamp?: number } = {}) => {
      const signed = signedInteraction(discord, interaction, Date.now(), options);
      const res = await server.request(signed.url, { method: 'POST', headers: signed.headers, body: signed.payload });
      return { status: res.statusCode, body: res.json() as DiscordMessage };
    };
    const alice = { guildId: fixture.guildId, userId: fixture.staff.alice.chatUserId!, name: 'Alice' };
    const manager = { guildId: fixture.guildId, userId: MANAGER_CHAT, name: 'Mona' };
    const helper = { guildId: fixture.guildId, userId: '7002', name: 'Hal' };

    // Discord's own checks of the address: a PING answered, a bad signature and a stale timestamp refused.
    expect((await send({ id: '1', type: 1 })).body).toEqual({ type: 1 });
    const forged = signedInteraction(discord, { id: '1', type: 1 }, Date.now(), { key: discordApplication().privateKey });
    expect((await server.request(forged.url, { method: 'POST', headers: forged.headers, body: forged.payload })).statusCode).toBe(401);
    expect((await send({ id: '1', type: 1 }, { timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    const stranger = discordApplication();
    const unknown = signedInteraction(stranger, { id: '1', type: 1 }, Date.now());
    expect((await server.request(unknown.url, { method: 'POST', headers: unknown.headers, body: unknown.payload })).statusCode).toBe(401);
    const elsewhere = await send(command({ ...alice, guildId: '4242' }, 'activity'));
    expect(elsewhere.body.data?.content).toMatch(/works only in the Discord server/);

    const before = (await send(command(alice, 'activity'))).body.data!.content;
    expect(before).toContain('0 minutes of 180 minutes required');

    // Today, in the workspace's zone (UTC): one day of this week off.
    const today = new Date().toISOString().slice(0, 10);
    const asked = await send(command(alice, 'loa', { start: today, end: today, reason: 'Family <@&123> matters' }, 'request'));
    expect(asked.body.data).toMatchObject({ flags: 64, allowed_mentions: { parse: [] } });
    expect(asked.body.data!.content).toMatch(/^Asked: time off/);

    const pending = await send(command(manager, 'timeoff', {}, 'pending'));
    expect(pending.body.data!.content).toContain('Family <@&123> matters');
    const approve = pending.body.data!.components![0]!.components[0]!;
    expect(approve.label).toBe('Approve');

    const refused = await send(press(helper, approve.custom_id!));
    expect(refused.body).toMatchObject({ type: 4, data: { flags: 64, content: 'Only managers who may decide time off can do this.' } });
    expect((await send(command(alice, 'activity'))).body.data!.content).toContain('0 minutes of 180 minutes required');

    const decided = await send(press(manager, approve.custom_id!));
    expect(decided.body.type).toBe(7);
    expect(decided.body.data!.content).toMatch(/^Approved by Mona \(user-reviewer\)/);
    expect(decided.body.data!.components).toEqual([]);

    // 180 minutes a week less one day of seven: 180 × 1/7 = 25 whole minutes waived.
    const after = (await send(command(alice, 'activity'))).body.data!.content;
    expect(after).toContain('0 minutes of 155 minutes required');
    expect(after).toContain('Time off lowers this week\'s requirement by 25 minutes.');
  }, 120_000);
});
