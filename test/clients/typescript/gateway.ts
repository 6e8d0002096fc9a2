import { randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FetchLike } from '../../../clients/typescript/src/index.ts';
import { ROOT, runCli, startCli, type ServingProcess } from '../../helpers/cli.ts';
import { checkerFor, headersOf } from '../../helpers/contract.ts';
import { TEST_JWT_SECRET } from '../../helpers/app.ts';
import { dashboardToken } from '../../helpers/fixtures.ts';
import { createTestDatabase, type StoreKind, type TestDatabase } from '../../helpers/stores.ts';

/**
 * The Node.js option that runs an example of the client from this repository: the examples import the client by
 * its package name, which this condition of its package.json resolves to its source (an installed package's
 * examples are compiled JavaScript, resolved to its `dist/`).
 */
export const FROM_SOURCE = '--conditions=workspace-gateway-source';

/** The provisioned world the client tests run against (the repository's example, plus submissions of their own). */
export const WORLD = {
  guildId: '1122334455667788',
  universeId: '4242001',
  /** Alice: active staff, chat user 5551, game user 1001. */
  alice: { gameUserId: '1001', chatUserId: '5551' },
  dmitri: { gameUserId: '1002', chatUserId: '5552' },
  /** The example's open form (questions `why`, `age`, `tz`). */
  formId: '3f2b8c1e-6a4d-4e2f-9b7a-1c5d8e9f0a81',
  owner: 'auth0|owner-anna',
  reviewer: 'auth0|reviewer-ben',
  /** The owner's chat user id (a member's `chatUserId`): a bot's console sign-in link finds her by it. */
  ownerChatUserId: '5559',
} as const;

export interface ProvisionedDatabase {
  readonly database: TestDatabase;
  /** The test-environment API key's secret. */
  readonly apiKey: string;
  /** The live-environment API key's secret (it lacks `staff:write`). */
  readonly liveApiKey: string;
  /** Fresh `submitted` submissions, by name. */
  readonly submissions: Readonly<Record<string, string>>;
  /** Game user ids of fresh active staff members (no shift yet), by name. */
  readonly staff: Readonly<Record<string, string>>;
  /** Chat user ids of the same staff members, by name. */
  readonly staffChat: Readonly<Record<string, string>>;
  drop(): Promise<void>;
}

/**
 * A fresh database of `kind`, provisioned through the CLI with the example document, plus one `submitted`
 * submission per submission name and one staff member with a chat user id per staff name (active, or inactive for
 * the inactive names). The example's keys hold `staff:write` and `console:link` (the live one is given no `staff:write`
 * here), and the owner `notices.decide` and `staff.rank`, so
 * the bot and the manager may handle time off and the bot may make console sign-in links.
 */
export async function provisionedDatabase(
  kind: StoreKind,
  submissionNames: readonly string[],
  staffNames: readonly string[] = [],
  inactiveStaffNames: readonly string[] = [],
): Promise<ProvisionedDatabase> {
  const database = await createTestDatabase(kind);
  const dir = mkdtempSync(join(tmpdir(), 'wsg-tsclient-'));
  const document = JSON.parse(readFileSync(join(ROOT, 'examples/provision.example.json'), 'utf8')) as {
    workspaces: Array<{
      submissions: unknown[];
      staff: unknown[];
      members: Array<{ userId: string; permissions: string[] }>;
      applications: Array<{ keys: Array<{ environment: string; scopes: string[] }> }>;
    }>;
  };
  const submissions: Record<string, string> = {};
  const workspace = document.workspaces[0];
  if (!workspace) throw new Error('the example document has no workspace');
  submissionNames.forEach((name, i) => {
    const id = randomUUID();
    submissions[name] = id;
    workspace.submissions.push({
      id,
      status: 'submitted',
      applicant: { gameUserId: `30${i}`, gameUsername: `applicant_${i}`, displayName: `Applicant ${i}` },
      answers: { why: 'I want to help.' },
      createdAt: '2026-03-05T10:00:00Z',
    });
  });
  // The example's keys carry what the example bot needs (time off asks `staff:write`, `/review` `console:link`).
  for (const key of workspace.applications.flatMap((a) => a.keys)) {
    for (const scope of ['staff:write', 'console:link']) {
      if (!key.scopes.includes(scope)) throw new Error(`the example's ${key.environment} key lacks ${scope}`);
    }
    // The live key stands for a bot whose key was made without `staff:write` (the refusals the tests check).
    if (key.environment === 'live') key.scopes = key.scopes.filter((scope) => scope !== 'staff:write');
  }
  workspace.members.find((m) => m.userId === WORLD.owner)?.permissions.push('notices.decide', 'staff.rank');
  const staff: Record<string, string> = {};
  const staffChat: Record<string, string> = {};
  [...staffNames, ...inactiveStaffNames].forEach((name, i) => {
    const gameUserId = `40${i}`;
    const chatUserId = `60${i}`;
    staff[name] = gameUserId;
    staffChat[name] = chatUserId;
    const status = i < staffNames.length ? 'active' : 'inactive';
    workspace.staff.push({ id: randomUUID(), displayName: name, gameUserId, gameUsername: `staff_${i}`, chatUserId, status });
  });
  const file = join(dir, 'provision.json');
  writeFileSync(file, JSON.stringify(document));
  const result = await runCli(['provision', file], { DATABASE_URL: database.url });
  rmSync(dir, { recursive: true, force: true });
  if (result.code !== 0) throw new Error(`provision failed: ${result.stderr}`);
  const keys = (JSON.parse(result.stdout) as { keys: Array<{ environment: string; secret?: string }> }).keys;
  const apiKey = keys.find((k) => k.environment === 'test')?.secret;
  const liveApiKey = keys.find((k) => k.environment === 'live')?.secret;
  if (!apiKey || !liveApiKey) throw new Error('provision printed no test or no live key');
  return { database, apiKey, liveApiKey, submissions, staff, staffChat, drop: () => database.drop() };
}

/** A real gateway process (`workspace-gateway serve`) on a free port over `database`. */
export function serveGateway(database: TestDatabase, env: Record<string, string> = {}): Promise<ServingProcess> {
  return startCli(['serve', '--port', '0', '--database-url', database.url], { JWT_SECRET: TEST_JWT_SECRET, ...env });
}

/** A dashboard token the served gateway accepts, valid for an hour from now. */
export function tokenFor(userId: string): Promise<string> {
  return dashboardToken(userId, { expiresAt: Date.now() + 3_600_000 });
}

/** What the transport saw of one attempt. */
export interface Attempt {
  readonly method: string;
  readonly path: string;
  readonly idempotencyKey: string | null;
  /** The status, or undefined when the attempt failed before an answer arrived. */
  readonly status: number | undefined;
}

/**
 * The global fetch, with every answer checked against the document the gateway at `baseUrl` serves (a
 * ContractViolation fails the call), and every attempt recorded in `attempts`.
 */
export function checkedTransport(baseUrl: string, attempts: Attempt[] = []): FetchLike {
  return async (request) => {
    const checker = await checkerFor(baseUrl);
    const path = new URL(request.url).pathname;
    const attempt = { method: request.method, path, idempotencyKey: request.headers.get('idempotency-key') };
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      attempts.push({ ...attempt, status: undefined });
      throw error;
    }
    attempts.push({ ...attempt, status: response.status });
    const body = await response.clone().text();
    checker.check(request.method, `${path}${new URL(request.url).search}`, {
      statusCode: response.status,
      headers: headersOf(response),
      body,
    });
    return response;
  };
}
