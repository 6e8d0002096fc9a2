import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../../../clients/typescript/src/index.ts';
import { loaCommand, parseLoa, type LoaCommand } from '../../../clients/typescript/examples/chat-bot.ts';
import { ROOT, type ServingProcess } from '../../helpers/cli.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { checkedTransport, FROM_SOURCE, provisionedDatabase, serveGateway, tokenFor, WORLD, type ProvisionedDatabase } from './gateway.ts';

const CHAT_BOT = join(ROOT, 'clients/typescript/examples/chat-bot.ts');
const run = promisify(execFile);
const DAY = 86_400_000;
/** The UTC day `offset` days from today, as a staff member types it. */
const day = (offset: number): string => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

const STAFF = ['asker', 'overlapper', 'canceller', 'returner', 'refused', 'replayer', 'program'] as const;

describe('/loa command words', () => {
  it('parses ask, list and cancel, and nothing else', () => {
    expect(parseLoa(['ask', '2026-12-01', '2026-12-03', 'Exams', 'week'])).toEqual({
      action: 'ask',
      from: '2026-12-01',
      to: '2026-12-03',
      reason: 'Exams week',
    });
    expect(parseLoa(['list'])).toEqual({ action: 'list' });
    expect(parseLoa(['cancel', 'abc'])).toEqual({ action: 'cancel', noticeId: 'abc' });
    for (const words of [[], ['ask', '2026-12-01'], ['list', 'all'], ['cancel'], ['holiday']]) expect(parseLoa(words)).toBeNull();
  });
});

describe.each(STORE_KINDS)('the chat bot\'s /loa against a real gateway (%s)', (kind) => {
  let provisioned: ProvisionedDatabase;
  let server: ServingProcess;
  let bot: GatewayClient;
  let manager: GatewayClient;

  beforeAll(async () => {
    provisioned = await provisionedDatabase(kind, [], [...STAFF], ['resting']);
    server = await serveGateway(provisioned.database);
    const fetch = checkedTransport(server.baseUrl);
    bot = createGatewayClient({ baseUrl: server.baseUrl, apiKey: provisioned.apiKey, fetch, retry: false });
    manager = createGatewayClient({ baseUrl: server.baseUrl, token: await tokenFor(WORLD.owner), fetch, retry: false });
  });
  afterAll(async () => {
    if (server) expect(await server.stop('SIGTERM')).toBe(0);
    await provisioned?.drop();
  });

  const as = (name: string, commandId?: string) => ({
    guildId: WORLD.guildId,
    chatUserId: provisioned.staffChat[name] ?? '',
    ...(commandId ? { commandId } : {}),
  });
  const loa = (name: string, command: LoaCommand, commandId?: string) => loaCommand(bot, as(name, commandId), command);
  const askFor = (from: string, to: string, reason = 'Exams') => ({ action: 'ask', from, to, reason }) as const;
  const noticeIdIn = (answer: string): string => UUID.exec(answer)?.[0] ?? '';

  it('asks for whole days, lists them, and cancels a pending notice', async () => {
    expect(await loa('asker', { action: 'list' })).toBe('You have no time off. Ask with `/loa ask <first day> <last day> <reason>`.');
    const asked = await loa('asker', askFor('2099-12-01', '2099-12-03', 'Exams week'));
    expect(asked).toBe('Asked: time off 1 December 2099 to 3 December 2099. A manager will decide; `/loa list` shows where it stands.');
    const listed = await loa('asker', { action: 'list' });
    expect(listed).toMatch(new RegExp(`^\\*\\*Your time off\\*\\*\\n- 1 December 2099 to 3 December 2099: Exams week, waiting for a manager\\. Id: ${UUID.source}$`));
    const id = noticeIdIn(listed);
    expect(await loa('asker', { action: 'cancel', noticeId: id })).toBe('Cancelled: time off 1 December 2099 to 3 December 2099.');
    expect(await loa('asker', { action: 'cancel', noticeId: id })).toBe('That request is already cancelled.');
    expect(await loa('asker', { action: 'list' })).toContain('Exams week, cancelled.');
  });

  it('turns each refused field into a sentence', async () => {
    expect(await loa('refused', askFor(day(1), day(2), '   '))).toBe('Tell the managers why (a short reason).');
    expect(await loa('refused', askFor(day(1), day(2), 'x'.repeat(501)))).toBe('Keep the reason to 500 characters.');
    expect(await loa('refused', askFor(day(3), day(1)))).toBe('The last day must come after the first day.');
    expect(await loa('refused', askFor(day(-10), day(1)))).toBe('Time off can start at most 7 days ago.');
    expect(await loa('refused', askFor(day(-5), day(-3)))).toBe('That time off is already over.');
    expect(await loa('refused', askFor(day(1), day(60)))).toBe(
      'That is longer than this community allows for one notice; ask for a shorter period.',
    );
    expect(await loa('refused', askFor('next-monday', day(2)))).toBe('I could not read "next-monday" as a date; write it like 2026-12-24.');
    expect(await loa('refused', { action: 'list' })).toMatch(/^You have no time off\./);
  });

  it('names the overlapping notice and how to cancel it', async () => {
    const first = await loa('overlapper', askFor(day(20), day(22)));
    expect(first).toMatch(/^Asked:/);
    const id = noticeIdIn(await loa('overlapper', { action: 'list' }));
    const overlap = await loa('overlapper', askFor(day(21), day(25)));
    expect(overlap).toMatch(/^You already have time off during these dates \(\d+ \w+ \d{4} to \d+ \w+ \d{4}, waiting for a manager\)\./);
    expect(overlap).toContain(`\`/loa cancel ${id}\``);
  });

  it('tells a denied notice and an unknown id apart', async () => {
    await loa('canceller', askFor(day(30), day(31)));
    const id = noticeIdIn(await loa('canceller', { action: 'list' }));
    await manager.denyInactivityNotice(id, { note: 'We need you that week.' });
    expect(await loa('canceller', { action: 'list' })).toContain('denied ("We need you that week.")');
    expect(await loa('canceller', { action: 'cancel', noticeId: id })).toBe('That request was denied; there is nothing to cancel.');
    expect(await loa('canceller', { action: 'cancel', noticeId: 'nope' })).toBe(
      'You have no time off with the id "nope"; `/loa list` shows yours.',
    );
  });

  it('welcomes back a staff member who ends approved time off early, and then it is over', async () => {
    await loa('returner', askFor(day(-1), day(2), 'Travelling'));
    const id = noticeIdIn(await loa('returner', { action: 'list' }));
    await manager.approveInactivityNotice(id);
    const back = await loa('returner', { action: 'cancel', noticeId: id });
    expect(back).toMatch(/^Welcome back! Your time off now ended on \d+ \w+ \d{4} at \d{2}:\d{2} UTC; the time you took still counts\.$/);
    expect(await loa('returner', { action: 'cancel', noticeId: id })).toBe('That time off is already over; there is nothing to cancel.');
  });

  it('refuses strangers, inactive staff and a key without staff:write in words', async () => {
    const stranger = { guildId: WORLD.guildId, chatUserId: '404404' };
    expect(await loaCommand(bot, stranger, askFor(day(1), day(2)))).toBe('You are not on the staff of this community.');
    expect(await loaCommand(bot, stranger, { action: 'list' })).toBe('You are not on the staff of this community.');
    expect(await loa('resting', askFor(day(1), day(2)))).toBe(
      'Your staff profile is inactive, so you cannot ask for time off here. Talk to a manager.',
    );
    expect(await loaCommand(bot, { ...stranger, guildId: '999' }, { action: 'list' })).toBe('This server is not linked to a workspace.');
    const live = createGatewayClient({ baseUrl: server.baseUrl, apiKey: provisioned.liveApiKey, retry: false });
    expect(await loaCommand(live, as('refused'), askFor(day(1), day(2)))).toBe(
      'This bot may not handle time off (its key needs `staff:write`). Tell an administrator.',
    );
    const unknown = createGatewayClient({ baseUrl: server.baseUrl, apiKey: `wsk_test_${'x'.repeat(32)}`, retry: false });
    expect(await loaCommand(unknown, as('refused'), { action: 'list' })).toBe(
      'This bot is not connected to the gateway any more (its key was refused). Tell an administrator.',
    );
  });

  it('asks once for a command delivered twice, and refuses a command id used for something else', async () => {
    const commandId = `interaction-${Date.now()}`;
    const ask = askFor(day(40), day(41));
    const first = await loa('replayer', ask, commandId);
    expect(await loa('replayer', ask, commandId)).toBe(first);
    expect((await loa('replayer', { action: 'list' })).match(new RegExp(UUID.source, 'g'))).toHaveLength(1);
    expect(await loa('replayer', askFor(day(50), day(51)), commandId)).toBe(
      'This command was already used for something else; run `/loa` again.',
    );
  });

  it('runs as a program: `node chat-bot.ts loa …` prints the answer', async () => {
    const env = { ...process.env, GATEWAY_URL: server.baseUrl, GATEWAY_API_KEY: provisioned.apiKey };
    const chatUserId = provisioned.staffChat.program ?? '';
    const asked = await run(process.execPath, [FROM_SOURCE, CHAT_BOT, 'loa', WORLD.guildId, chatUserId, 'ask', '2099-06-01', '2099-06-01', 'A', 'wedding'], { env });
    expect(asked.stdout).toBe('Asked: time off 1 June 2099. A manager will decide; `/loa list` shows where it stands.\n');
    const listed = await run(process.execPath, [FROM_SOURCE, CHAT_BOT, 'loa', WORLD.guildId, chatUserId, 'list'], { env });
    expect(listed.stdout).toMatch(/^\*\*Your time off\*\*\n- 1 June 2099: A wedding, waiting for a manager\. Id: /);
    const week = await run(process.execPath, [FROM_SOURCE, CHAT_BOT, WORLD.guildId, WORLD.alice.chatUserId], { env });
    expect(week.stdout).toMatch(/^\*\*Your week\*\*: /);
    const usage = await run(process.execPath, [FROM_SOURCE, CHAT_BOT, 'loa', WORLD.guildId, chatUserId, 'holiday'], { env });
    expect(usage.stdout).toContain('Use `/loa ask <first day> <last day> <reason>`');
  });
});

describe('/loa refusals a gateway gives only under load or to a faulty bot', () => {
  /** A client whose every call is answered `status` with the error envelope of `code`. */
  const answering = (status: number, code: string, headers: Record<string, string> = {}) =>
    createGatewayClient({
      baseUrl: 'http://gateway.invalid',
      apiKey: `wsk_test_${'x'.repeat(32)}`,
      retry: false,
      fetch: async () =>
        new Response(JSON.stringify({ error: { code, message: 'refused', requestId: 'req_0123456789abcdefgh' } }), {
          status,
          headers: { 'content-type': 'application/json', ...headers },
        }),
    });
  const ctx = { guildId: WORLD.guildId, chatUserId: '5551', commandId: 'interaction-1' };

  it.each([
    [409, 'idempotency_request_in_progress', 'Your previous `/loa` command is still being handled; look at `/loa list` in a moment.'],
    [400, 'invalid_idempotency_key', 'The bot could not send this command safely (its command id is not usable); please run it again.'],
    [400, 'idempotency_key_required', 'The bot could not send this command safely (its command id is not usable); please run it again.'],
    [500, 'internal_error', 'Something went wrong (internal_error, request req_0123456789abcdefgh).'],
  ])('%i %s', async (status, code, sentence) => {
    expect(await loaCommand(answering(status, code), ctx, { action: 'cancel', noticeId: 'x' })).toBe(sentence);
    expect(await loaCommand(answering(status, code), ctx, { action: 'ask', from: '2099-01-01', to: '2099-01-02', reason: 'r' })).toBe(sentence);
  });

  it('429 rate_limited names the wait', async () => {
    const limited = answering(429, 'rate_limited', { 'retry-after': '7' });
    expect(await loaCommand(limited, ctx, { action: 'list' })).toBe('Too many requests right now; try again in 7 s.');
  });
});

describe('the chat bot as a program', () => {
  it('without a gateway address or key prints its usage and exits 2', async () => {
    const env = { ...process.env, GATEWAY_URL: '', GATEWAY_API_KEY: '' };
    const failure = await run(process.execPath, [FROM_SOURCE, CHAT_BOT], { env }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stdout).toBe('');
    expect(failure?.stderr).toMatch(/^usage: GATEWAY_URL=… GATEWAY_API_KEY=… node chat-bot\.js <guildId> <chatUserId>\n/);
  });
});
