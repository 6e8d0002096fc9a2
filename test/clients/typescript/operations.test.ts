import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { systemClock } from '../../../src/shared/clock.ts';
import { loadConfig } from '../../../src/shared/config.ts';
import { openStore } from '../../../src/db/connect.ts';
import { createGatewayClient, type GatewayClient } from '../../../clients/typescript/src/index.ts';
import type { ServingProcess } from '../../helpers/cli.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { activityCommand, applicationCommand } from '../../../clients/typescript/examples/chat-bot.ts';
import { CASES as OTHER_CASES, type CaseContext } from './cases.ts';
import { TIME_OFF_CASES } from './time-off-cases.ts';
import { CONSOLE_CASES } from './console-cases.ts';
import { STAFF_CASES } from './staff-cases.ts';
import { checkedTransport, provisionedDatabase, serveGateway, tokenFor, WORLD, type ProvisionedDatabase } from './gateway.ts';

/** operationIds of the document the gateway serves (an in-process app: the list is needed to declare the tests). */
async function servedOperationIds(): Promise<string[]> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const store = openStore(config.databaseUrl);
  const app = await buildApp({ config, store, clock: systemClock, logger: false });
  try {
    await app.ready();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    return Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId ?? '(none)'));
  } finally {
    await app.close();
    await store.close();
  }
}

/** Called by Discord and by Roblox, signed with their keys, never by a client of the gateway. */
const PLATFORM_CALLS = ['handleDiscordInteraction', 'takeRobloxErasureRequest'];
const OPERATION_IDS = (await servedOperationIds()).filter((id) => !PLATFORM_CALLS.includes(id));
const CASES = { ...OTHER_CASES, ...TIME_OFF_CASES, ...CONSOLE_CASES, ...STAFF_CASES };
const RATE_LIMIT_ROUNDS = 3;

describe('TypeScript client coverage', () => {
  it('every operation of the served document has a client method and a success and an error test', () => {
    expect(OPERATION_IDS.length).toBeGreaterThan(0);
    const client = createGatewayClient({ baseUrl: 'http://127.0.0.1:1' }) as unknown as Record<string, unknown>;
    expect(OPERATION_IDS.filter((id) => typeof client[id] !== 'function'), 'operations without a client method').toEqual([]);
    expect(OPERATION_IDS.filter((id) => !(id in CASES)), 'operations without a client test').toEqual([]);
    expect(Object.keys(CASES).filter((id) => !OPERATION_IDS.includes(id)), 'tests of operations not served').toEqual([]);
  });
});

describe.each(STORE_KINDS)('TypeScript client against a real gateway (%s)', (kind) => {
  let provisioned: ProvisionedDatabase;
  let server: ServingProcess;
  let clients: Omit<CaseContext, 'submission' | 'staff' | 'staffChat'>;
  const submissionNames = OPERATION_IDS.flatMap((id) => [`${id}:success`, `${id}:failure`]);

  beforeAll(async () => {
    provisioned = await provisionedDatabase(kind, submissionNames, [
      ...submissionNames,
      'retry-lost',
      ...Array.from({ length: RATE_LIMIT_ROUNDS }, (_, i) => `retry-429-${i}`),
    ]);
    server = await serveGateway(provisioned.database);
    const baseUrl = server.baseUrl;
    const fetch = checkedTransport(baseUrl);
    const retry = { baseDelayMs: 20 };
    clients = {
      baseUrl,
      client: createGatewayClient({ baseUrl, apiKey: provisioned.apiKey, fetch, retry }),
      owner: createGatewayClient({ baseUrl, token: await tokenFor(WORLD.owner), fetch, retry }),
      reviewer: createGatewayClient({ baseUrl, token: await tokenFor(WORLD.reviewer), fetch, retry }),
      stranger: createGatewayClient({ baseUrl, apiKey: `wsk_test_${'x'.repeat(32)}`, fetch, retry }),
      lost: createGatewayClient({ baseUrl: `${baseUrl}/nowhere`, fetch, retry }),
    };
  });
  afterAll(async () => {
    if (server) expect(await server.stop('SIGTERM')).toBe(0);
    await provisioned?.drop();
  });

  const context = (id: string, outcome: 'success' | 'failure'): CaseContext => {
    const name = `${id}:${outcome}`;
    const submission = provisioned.submissions[name];
    const staff = provisioned.staff[name];
    const staffChat = provisioned.staffChat[name];
    if (!submission || !staff || !staffChat) throw new Error(`nothing provisioned for ${name}`);
    return { ...clients, submission, staff, staffChat: { chatGuildId: WORLD.guildId, actingChatUserId: staffChat } };
  };

  it.each(OPERATION_IDS)('%s: a success, and an error as a typed GatewayError', async (id) => {
    const operation = CASES[id];
    if (!operation) throw new Error(`no client test for operation ${id}`);
    await operation.success(context(id, 'success'));
    await operation.failure(context(id, 'failure'));
  });

  it('the example chat-bot command answers with the member\'s week and the leaderboard, or a friendly refusal', async () => {
    const answer = await activityCommand(clients.client, { guildId: WORLD.guildId, chatUserId: WORLD.alice.chatUserId });
    expect(answer).toMatch(/^\*\*Your week\*\*: \d+ h \d{2} min of \d+ h \d{2} min \(\d+ %\)\nNot on shift\./);
    expect(answer).toMatch(/\n1\. \S+/);
    const stranger = await activityCommand(clients.client, { guildId: WORLD.guildId, chatUserId: '404404' });
    expect(stranger).toBe('You are not on the staff of this community.');
  });

  it('the example chat-bot application command tells an applicant what happened to their newest application', async () => {
    const { client, owner } = clients;
    const gameUserId = `77${Date.now()}`;
    expect(await applicationCommand(client, gameUserId)).toBe('You have not applied yet.');
    const body = { applicant: { gameUserId }, answers: { why: 'To help.', age: 21 } };
    const submitted = (await client.submitApplication(WORLD.formId, body)).body.data.submission;
    const date = String.raw`\d{1,2} [A-Z][a-z]+ \d{4}`;
    const sent = `Your application to "Moderator application", sent on ${date}, `;
    expect(await applicationCommand(client, gameUserId)).toMatch(new RegExp(`^${sent}is waiting for a reviewer\\.$`));
    await owner.markSubmissionUnderReview(submitted.id);
    expect(await applicationCommand(client, gameUserId)).toMatch(new RegExp(`^${sent}is being reviewed\\.$`));
    await owner.rejectSubmission(submitted.id, { reviewNote: 'Not this time.' });
    const rejected = await applicationCommand(client, gameUserId);
    expect(rejected).toMatch(new RegExp(`^${sent}was not accepted on ${date}\\.$`));
    expect(rejected).not.toContain('Not this time');
    expect(await applicationCommand(client, 'not-a-number')).toBe('That is not a game user id.');
  });

  it('an application whose answer was lost is sent again with the same Idempotency-Key and recorded once', async () => {
    const attempts: Parameters<typeof checkedTransport>[1] = [];
    const checked = checkedTransport(server.baseUrl, attempts);
    let dropped = 0;
    const losing = async (request: Request): Promise<Response> => {
      const response = await checked(request);
      if (request.method === 'POST' && dropped === 0) {
        dropped += 1;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const client = createGatewayClient({ baseUrl: server.baseUrl, apiKey: provisioned.apiKey, fetch: losing, retry: { baseDelayMs: 20 } });
    const gameUserId = `66${Date.now()}`;
    const reply = await client.submitApplication(WORLD.formId, { applicant: { gameUserId }, answers: { why: 'Again.', age: 40 } });
    const posts = attempts.filter((a) => a.method === 'POST');
    expect(posts.map((a) => a.status)).toEqual([200, 200]);
    expect(new Set(posts.map((a) => a.idempotencyKey))).toEqual(new Set([reply.idempotencyKey]));
    expect(reply.replayed).toBe(true);
    const listed = (await clients.client.listApplicantSubmissions(gameUserId)).body.data.submissions;
    expect(listed.map((s) => s.id)).toEqual([reply.body.data.submission.id]);
  });

  it('a write whose answer was lost is sent again with the same Idempotency-Key and answered as a replay', async () => {
    const attempts: Parameters<typeof checkedTransport>[1] = [];
    const checked = checkedTransport(server.baseUrl, attempts);
    let dropped = 0;
    // The first answer to the start is received and thrown away, as when a connection breaks after the commit.
    const losing = async (request: Request): Promise<Response> => {
      const response = await checked(request);
      if (request.method === 'POST' && dropped === 0) {
        dropped += 1;
        throw new TypeError('fetch failed: connection reset');
      }
      return response;
    };
    const client: GatewayClient = createGatewayClient({
      baseUrl: server.baseUrl,
      apiKey: provisioned.apiKey,
      fetch: losing,
      retry: { baseDelayMs: 20 },
    });
    const staff = provisioned.staff['retry-lost'] ?? '';
    const reply = await client.startShift({ gameUserId: staff, universeId: WORLD.universeId, placeId: '7', serverId: 'srv-lost' });
    const posts = attempts.filter((a) => a.method === 'POST');
    expect(posts.map((a) => a.status)).toEqual([200, 200]);
    expect(new Set(posts.map((a) => a.idempotencyKey))).toEqual(new Set([reply.idempotencyKey]));
    expect(reply.replayed).toBe(true);
    expect(reply.body.data.existing).toBe(false);
    const active = await clients.client.listActiveShifts();
    expect(active.body.data.shifts.filter((s) => s.id === reply.body.data.shift.id)).toHaveLength(1);
  });

  it('a 429 is retried after Retry-After with the same Idempotency-Key, and the write happens once', async () => {
    const limited = await serveGateway(provisioned.database, { RATE_LIMIT_MAX: '1', RATE_LIMIT_WINDOW_SECONDS: '2' });
    try {
      const retries: number[] = [];
      // A slow machine may cross into the next window between spending it and the write: then try again.
      for (let round = 0; ; round += 1) {
        const attempts: Parameters<typeof checkedTransport>[1] = [];
        const fetch = checkedTransport(limited.baseUrl, attempts);
        const client = createGatewayClient({
          baseUrl: limited.baseUrl,
          apiKey: provisioned.apiKey,
          fetch,
          retry: { baseDelayMs: 20, onRetry: (event) => retries.push(event.status ?? 0) },
        });
        // Spend the window's one request until the gateway refuses (a client that does not retry), then write.
        const once = createGatewayClient({ baseUrl: limited.baseUrl, apiKey: provisioned.apiKey, fetch, retry: false });
        for (let i = 0; i < 10; i += 1) {
          const refused = await once.getIntegration().then(
            () => false,
            () => true,
          );
          if (refused) break;
        }
        const staff = provisioned.staff[`retry-429-${round}`] ?? '';
        // A server of this round's own: a round given up (no 429 met) leaves its shift active on its own server.
        const serverId = `srv-429-${round}`;
        const body = { gameUserId: staff, universeId: WORLD.universeId, placeId: '7', serverId };
        const reply = await client.startShift(body);
        const posts = attempts.filter((a) => a.method === 'POST');
        if (posts[0]?.status !== 429 && round < RATE_LIMIT_ROUNDS - 1) continue;
        expect(posts[0]?.status).toBe(429);
        expect(posts.at(-1)?.status).toBe(200);
        expect(new Set(posts.map((a) => a.idempotencyKey))).toEqual(new Set([reply.idempotencyKey]));
        expect(retries).toContain(429);
        expect(reply.body.data.existing).toBe(false);
        // The same logical write again (same key; retried past any 429): the stored answer, marked as a replay.
        const replay = await client.startShift(body, { idempotencyKey: reply.idempotencyKey });
        expect(replay.replayed).toBe(true);
        expect(replay.body).toEqual(reply.body);
        const active = await client.listActiveShifts();
        expect(active.body.data.shifts.filter((s) => s.serverId === serverId)).toHaveLength(1);
        break;
      }
    } finally {
      expect(await limited.stop('SIGTERM')).toBe(0);
    }
  });
});
