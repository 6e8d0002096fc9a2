import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGatewayClient, type GatewayClient } from '../../../clients/typescript/src/index.ts';
import { reviewCommand } from '../../../clients/typescript/examples/chat-bot.ts';
import { ROOT, type ServingProcess } from '../../helpers/cli.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { checkedTransport, FROM_SOURCE, provisionedDatabase, serveGateway, WORLD, type ProvisionedDatabase } from './gateway.ts';

const CHAT_BOT = join(ROOT, 'clients/typescript/examples/chat-bot.ts');
const run = promisify(execFile);
const LINK = /https?:\/\/\S+\/console\/sign-in#code=([0-9A-Za-z]{43})/;

describe.each(STORE_KINDS)('the chat bot\'s /review against a real gateway (%s)', (kind) => {
  let provisioned: ProvisionedDatabase;
  let server: ServingProcess;
  let bot: GatewayClient;

  beforeAll(async () => {
    provisioned = await provisionedDatabase(kind, []);
    server = await serveGateway(provisioned.database);
    bot = createGatewayClient({ baseUrl: server.baseUrl, apiKey: provisioned.apiKey, fetch: checkedTransport(server.baseUrl), retry: false });
  });
  afterAll(async () => {
    if (server) expect(await server.stop('SIGTERM')).toBe(0);
    await provisioned?.drop();
  });

  it('answers a member privately with a one-time link that signs them in', async () => {
    const reply = await reviewCommand(bot, { guildId: WORLD.guildId, chatUserId: WORLD.ownerChatUserId, commandId: 'interaction-7' });
    expect(reply.ephemeral).toBe(true);
    expect(reply.content).toMatch(
      /^Your console sign-in link: \S+\nIt works once, until \d{2}:\d{2} UTC\. Do not share it: it signs you in\.$/,
    );
    const url = LINK.exec(reply.content)?.[0] ?? '';
    expect(url.startsWith(`${server.baseUrl}/console/sign-in#code=`)).toBe(true);
    const code = LINK.exec(reply.content)?.[1] ?? '';
    const session = await createGatewayClient({ baseUrl: server.baseUrl, retry: false }).createConsoleSession(code);
    expect(session.body.data.userId).toBe(WORLD.owner);
  });

  it('tells a chat user who is no member, privately, to ask an administrator', async () => {
    const reply = await reviewCommand(bot, { guildId: WORLD.guildId, chatUserId: WORLD.alice.chatUserId });
    expect(reply).toEqual({
      content: 'Your chat account is not linked to a reviewer or manager of this community. Ask an administrator.',
      ephemeral: true,
    });
    const elsewhere = await reviewCommand(bot, { guildId: '1', chatUserId: WORLD.ownerChatUserId });
    expect(elsewhere.content).toBe('This server is not linked to a workspace.');
  });

  it('runs as a program: `node chat-bot.ts review <guildId> <chatUserId>` prints the answer', async () => {
    const env = { ...process.env, GATEWAY_URL: server.baseUrl, GATEWAY_API_KEY: provisioned.apiKey };
    const { stdout } = await run(process.execPath, [FROM_SOURCE, CHAT_BOT, 'review', WORLD.guildId, WORLD.ownerChatUserId], { env });
    expect(stdout).toMatch(LINK);
  });
});

describe('/review refusals from a key without console:link, or under load', () => {
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
  const ctx = { guildId: WORLD.guildId, chatUserId: WORLD.ownerChatUserId };

  it.each([
    [403, 'insufficient_scope', {}, 'This bot may not make sign-in links (its key needs `console:link`). Tell an administrator.'],
    [429, 'rate_limited', { 'retry-after': '7' }, 'Too many requests right now; try again in 7 s.'],
    [500, 'internal_error', {}, 'Something went wrong (internal_error, request req_0123456789abcdefgh).'],
  ])('%i %s', async (status, code, headers, sentence) => {
    expect(await reviewCommand(answering(status, code, headers), ctx)).toEqual({ content: sentence, ephemeral: true });
  });
});
