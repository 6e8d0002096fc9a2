import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { buildFixture } from '../../helpers/fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../../helpers/stores.ts';
import { provisionWithCli } from '../../clients/application-centre.ts';
import { COMMANDS } from '../../../src/features/discord/commands.ts';
import { discordApplication } from './helpers.ts';

/**
 * `discord register` and `discord commands` as processes, against a fake Discord REST API (a real HTTP server that
 * answers `PUT /applications/{id}/guilds/{id}/commands` as Discord documents it). The CLI reads the database only,
 * so one store is enough here; the queries it runs are snapshotted on both.
 */

interface Received {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: unknown;
}

const TOKEN = 'MTIzNDU2Nzg5.bot-token-never-printed';

describe('discord register and discord commands', () => {
  let database: TestDatabase;
  let fake: Server;
  let apiUrl: string;
  const received: Received[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: [] };
  const discord = discordApplication();
  const fixture = buildFixture();
  fixture.workspace.discord = { applicationId: discord.applicationId, publicKey: discord.publicKey };
  const plain = buildFixture();

  const body = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    await provisionWithCli(database, { workspaces: [...fixture.document.workspaces, ...plain.document.workspaces] });
    fake = createServer(async (request, response) => {
      const text = await body(request);
      received.push({ method: request.method ?? '', url: request.url ?? '', authorization: request.headers.authorization, body: JSON.parse(text || 'null') });
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/api/v10`;
  });
  afterAll(async () => {
    await new Promise((resolve) => fake.close(resolve));
    await database.drop();
  });

  const env = (extra: Record<string, string> = {}) => ({ DATABASE_URL: database.url, DISCORD_API_URL: apiUrl, DISCORD_BOT_TOKEN: TOKEN, ...extra });

  it('register replaces the server\'s commands with one PUT and prints the names; the token is sent, never printed', async () => {
    answer = { status: 200, body: COMMANDS.map((c, i) => ({ id: String(i), ...c })) };
    received.length = 0;
    const result = await runCli(['discord', 'register', '--workspace', fixture.ids.workspaceId], env());
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ registered: ['activity', 'leaderboard', 'onduty', 'loa', 'timeoff', 'review'] });
    expect(received).toEqual([
      {
        method: 'PUT',
        url: `/api/v10/applications/${discord.applicationId}/guilds/${fixture.guildId}/commands`,
        authorization: `Bot ${TOKEN}`,
        body: COMMANDS,
      },
    ]);
    expect(result.stdout + result.stderr).not.toContain(TOKEN);
  });

  it('Discord\'s refusal is shown on stderr with exit 1, without the token', async () => {
    answer = { status: 401, body: { message: '401: Unauthorized', code: 0 } };
    const result = await runCli(['discord', 'register', '--workspace', fixture.ids.workspaceId], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).toContain('401: Unauthorized');
    expect(result.stderr).not.toContain(TOKEN);
  });

  it('refuses without a token, or for a workspace with no discord block, sending nothing', async () => {
    received.length = 0;
    const noToken = await runCli(['discord', 'register', '--workspace', fixture.ids.workspaceId], env({ DISCORD_BOT_TOKEN: '' }));
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toMatch(/DISCORD_BOT_TOKEN is not set/);
    const notConnected = await runCli(['discord', 'register', '--workspace', plain.ids.workspaceId], env());
    expect(notConnected.code).toBe(1);
    expect(notConnected.stderr).toMatch(/has no discord block/);
    expect(received).toEqual([]);
  });

  it('commands prints what register sends, without sending it', async () => {
    received.length = 0;
    const all = await runCli(['discord', 'commands'], env());
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toEqual(COMMANDS);
    const one = await runCli(['discord', 'commands', '--workspace', fixture.ids.workspaceId], env());
    expect(JSON.parse(one.stdout)).toEqual(COMMANDS);
    expect(received).toEqual([]);
  });
});
