import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_TOKEN_TTL_SECONDS,
  GATEWAY_TOKEN_ISSUER,
  issueDashboardToken,
  obtainSigningKey,
} from '../../src/auth/keys/dashboard-token.ts';
import { createTestContext, DEFAULT_NOW, type TestContext } from '../helpers/app.ts';
import { runCli } from '../helpers/cli.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { errorCode, seedReviewFixture, type ReviewFixture } from '../features/applications/helpers.ts';
import { headers, insertSubmission, queueUrl } from '../features/applications/queue-helpers.ts';

const STRANGER = 'user-provisioned-nowhere';
const HOUR = 3_600_000;

interface Issued {
  token: string;
  userId: string;
  expiresAt: string;
}

/** Dashboard tokens the gateway signs itself (`tokens create`), accepted beside the identity provider's. */
describe.each(STORE_KINDS)('gateway-signed dashboard tokens (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: ReviewFixture;
  let submissionId: string;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = await seedReviewFixture(ctx);
    submissionId = await insertSubmission(ctx, { workspaceId: fixture.ids.workspaceId });
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const queue = (token: string, workspaceId?: string) =>
    ctx.inject({ method: 'GET', url: queueUrl(), headers: headers(token, workspaceId) });
  const ownToken = async (userId: string, now = ctx.clock.now(), ttlSeconds = DEFAULT_TOKEN_TTL_SECONDS) =>
    (await issueDashboardToken(await obtainSigningKey(ctx.store.db, undefined, now), { userId, ttlSeconds, now })).token;

  it('tokens create prints a token the review queue accepts for that user and their workspaces', async () => {
    const created = await runCli(['tokens', 'create', '--user', REVIEWER_USER_ID, '--ttl', '30m', '--database-url', ctx.database.url]);
    expect(created.code, created.stderr).toBe(0);
    const issued = JSON.parse(created.stdout) as Issued;
    expect(issued.userId).toBe(REVIEWER_USER_ID);
    const minutesLeft = (Date.parse(issued.expiresAt) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(28);
    expect(minutesLeft).toBeLessThanOrEqual(30);

    const res = await queue(issued.token, fixture.ids.workspaceId);
    expect(res.statusCode, res.body).toBe(200);
    const listed = (res.json() as { data: { submissions: Array<{ id: string }> } }).data.submissions.map((s) => s.id);
    expect(listed).toEqual([submissionId]);
    // The same user's other workspaces stay closed: memberships come from the provisioning document.
    const other = await queue(issued.token, fixture.second.ids.workspaceId);
    expect(other.statusCode).toBe(403);
    expect(errorCode(other)).toBe('workspace_access_denied');
  });

  it('the key is generated once and stored: a second token is signed with the same key', async () => {
    const first = await obtainSigningKey(ctx.store.db, undefined, DEFAULT_NOW);
    const second = await obtainSigningKey(ctx.store.db, undefined, DEFAULT_NOW);
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
    expect(first.length).toBe(32);
    const rows = await ctx.store.db.selectFrom('gateway_signing_key').selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it('an expired token is 401', async () => {
    const token = await ownToken(REVIEWER_USER_ID, DEFAULT_NOW - 2 * HOUR, 3600);
    const res = await queue(token);
    expect(res.statusCode).toBe(401);
    expect(errorCode(res)).toBe('unauthenticated');
  });

  it('a token with the gateway issuer signed by another key is 401, and so is one signed with the identity provider secret', async () => {
    const forged = await issueDashboardToken(new Uint8Array(randomBytes(32)), {
      userId: REVIEWER_USER_ID,
      ttlSeconds: 3600,
      now: DEFAULT_NOW,
    });
    const idpSigned = await dashboardToken(REVIEWER_USER_ID, { issuer: GATEWAY_TOKEN_ISSUER });
    for (const token of [forged.token, idpSigned]) {
      const res = await queue(token);
      expect(res.statusCode).toBe(401);
      expect(errorCode(res)).toBe('unauthenticated');
    }
  });

  it('a token for a user no workspace lists is accepted and sees no workspace, as an identity-provider token is', async () => {
    for (const token of [await ownToken(STRANGER), await dashboardToken(STRANGER)]) {
      const all = await queue(token);
      expect(all.statusCode).toBe(403);
      expect(errorCode(all)).toBe('permission_denied');
      const one = await queue(token, fixture.ids.workspaceId);
      expect(one.statusCode).toBe(403);
      expect(errorCode(one)).toBe('workspace_access_denied');
    }
  });

  it('tokens create refuses a missing user and a lifetime over 30 days', async () => {
    for (const args of [['--ttl', '1h'], ['--user', REVIEWER_USER_ID, '--ttl', '31d'], ['--user', REVIEWER_USER_ID, '--ttl', '8 hours']]) {
      const res = await runCli(['tokens', 'create', ...args, '--database-url', ctx.database.url]);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain('tokens create');
    }
  });
});

describe.each(STORE_KINDS)('a gateway with only its own key (%s)', (kind) => {
  const configured = randomBytes(32).toString('base64url');
  let ctx: TestContext;
  let fixture: ReviewFixture;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { env: { JWT_SECRET: '', DASHBOARD_SIGNING_KEY: configured } });
    fixture = await seedReviewFixture(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('serves the dashboard routes to its own tokens and refuses identity-provider ones', async () => {
    const created = await runCli(['tokens', 'create', '--user', REVIEWER_USER_ID, '--database-url', ctx.database.url], {
      DASHBOARD_SIGNING_KEY: configured,
    });
    expect(created.code, created.stderr).toBe(0);
    const { token, expiresAt } = JSON.parse(created.stdout) as Issued;
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(8 * HOUR - 120_000);
    const res = await ctx.inject({ method: 'GET', url: queueUrl(), headers: headers(token, fixture.ids.workspaceId) });
    expect(res.statusCode, res.body).toBe(200);

    const idp = await ctx.inject({ method: 'GET', url: queueUrl(), headers: headers(await dashboardToken(REVIEWER_USER_ID)) });
    expect(idp.statusCode).toBe(401);
  });

  it('the configured key wins over a stored one: nothing is generated, and a token of the stored key is refused', async () => {
    expect(await ctx.store.db.selectFrom('gateway_signing_key').selectAll().execute()).toEqual([]);
    const stored = await obtainSigningKey(ctx.store.db, undefined, DEFAULT_NOW);
    const token = await issueDashboardToken(stored, { userId: REVIEWER_USER_ID, ttlSeconds: 3600, now: DEFAULT_NOW });
    const res = await ctx.inject({ method: 'GET', url: queueUrl(), headers: headers(token.token) });
    expect(res.statusCode).toBe(401);
    const key = await obtainSigningKey(ctx.store.db, configured, DEFAULT_NOW);
    expect(Buffer.from(key).toString('base64url')).toBe(configured);
  });
});
