import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/shared/clock.ts';
import { sha256Hex } from '../src/shared/ids.ts';
import { runCli, startCli, type ServingProcess } from './helpers/cli.ts';
import { bearer, buildFixture, seed } from './helpers/fixtures.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from './helpers/stores.ts';

interface KeyOutput {
  id: string;
  applicationId: string;
  workspaceId: string;
  environment: 'test' | 'live';
  scopes: string[];
  status: 'active' | 'revoked' | 'expired';
  createdAt: string;
  expiresAt: string | null;
  secret?: string;
}

const UNKNOWN_ID = '00000000-0000-4000-8000-00000000beef';

// Every command is a real process (about a second or two each on a busy machine): generous timeouts.
describe.each(STORE_KINDS)('keys commands (%s)', { timeout: 120_000 }, (kind) => {
  let database: TestDatabase;
  let server: ServingProcess;
  const fixture = buildFixture();
  const other = buildFixture();
  const applicationId = fixture.ids.applicationId;
  const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url });

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const store = database.open();
    try {
      await seed({ store, clock: systemClock }, fixture);
      await seed({ store, clock: systemClock }, other);
    } finally {
      await store.close();
    }
    server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  /** GET /v1/integration with the key, through the real server (checked against its document). */
  const integration = (secret: string) => server.request('/v1/integration', { headers: bearer(secret) });

  async function created(...args: string[]): Promise<KeyOutput> {
    const res = await cli('keys', 'create', ...args);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    return JSON.parse(res.stdout) as KeyOutput;
  }

  it('keys create prints the new key with its secret once; the key works against the server with every scope', async () => {
    const key = await created('--application', applicationId, '--environment', 'live');
    expect(key).toMatchObject({
      applicationId,
      workspaceId: fixture.ids.workspaceId,
      environment: 'live',
      scopes: ['activity:write', 'activity:read', 'staff:read', 'staff:write', 'applications:read', 'applications:write', 'console:link'],
      status: 'active',
      expiresAt: null,
    });
    expect(key.secret).toMatch(/^wsk_live_[0-9A-Za-z]{32,}$/);
    const res = await integration(key.secret ?? '');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { environment: 'live', scopes: key.scopes, application: { id: applicationId } } });
  });

  it('keys create --scope limits the scopes (repeated or comma-separated, in canonical order)', async () => {
    const key = await created(
      '--application', applicationId, '--environment', 'test', '--scope', 'staff:read', '--scope=activity:read',
    );
    expect(key.scopes).toEqual(['activity:read', 'staff:read']);
    const commas = await created('--application', applicationId, '--environment=test', '--scope', 'activity:write,activity:read');
    expect(commas.scopes).toEqual(['activity:write', 'activity:read']);
    const notices = await created('--application', applicationId, '--environment', 'test', '--scope', 'staff:write,staff:read');
    expect(notices.scopes).toEqual(['staff:read', 'staff:write']);
    const res = await integration(key.secret ?? '');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ data: { environment: 'test', scopes: ['activity:read', 'staff:read'] } });
  });

  it('keys create refuses bad arguments and unknown applications on stderr, non-zero, creating nothing', async () => {
    const before = JSON.parse((await cli('keys', 'list')).stdout).keys.length as number;
    const cases: Array<[string[], RegExp]> = [
      [['--application', UNKNOWN_ID, '--environment', 'test'], new RegExp(`no application has the id ${UNKNOWN_ID}`)],
      [['--application', applicationId, '--environment', 'prod'], /environment must be one of test, live/],
      [['--application', applicationId, '--environment', 'test', '--scope', 'admin'], /unknown scope admin/],
      [['--environment', 'test'], /needs --application/],
      [['--application', applicationId], /needs --environment/],
      [['--application', applicationId, '--environment', 'test', '--grace-seconds', '5'], /takes no --grace-seconds/],
    ];
    for (const [args, message] of cases) {
      const res = await cli('keys', 'create', ...args);
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
    expect(JSON.parse((await cli('keys', 'list')).stdout).keys).toHaveLength(before);
  });

  it('keys list shows keys (of one application with --application) and never a secret or a hash', async () => {
    const key = await created('--application', applicationId, '--environment', 'test');
    const all = await cli('keys', 'list');
    expect(all.code, all.stderr).toBe(0);
    const keys = JSON.parse(all.stdout).keys as KeyOutput[];
    expect(keys.map((k) => k.id)).toEqual(expect.arrayContaining([key.id, fixture.keys.test.id, other.keys.test.id]));
    const mine = keys.find((k) => k.id === key.id);
    expect(mine).toEqual({ ...key, secret: undefined });
    for (const k of keys) expect(Object.keys(k).sort()).toEqual(
      ['applicationId', 'createdAt', 'environment', 'expiresAt', 'id', 'scopes', 'status', 'workspaceId'],
    );
    for (const secret of [key.secret ?? '', fixture.keys.test.secret, other.keys.live.secret]) {
      expect(all.stdout).not.toContain(secret);
      expect(all.stdout).not.toContain(sha256Hex(secret));
    }
    const filtered = await cli('keys', 'list', '--application', other.ids.applicationId);
    const otherKeys = JSON.parse(filtered.stdout).keys as KeyOutput[];
    expect(otherKeys.map((k) => k.id).sort()).toEqual([other.keys.test.id, other.keys.live.id].sort());
    const unknown = await cli('keys', 'list', '--application', UNKNOWN_ID);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/no application has the id/);
    expect(unknown.stdout).toBe('');
  });

  it('keys revoke: the key is refused (401) at once; an unknown id is a clear error', async () => {
    const key = await created('--application', applicationId, '--environment', 'test');
    expect((await integration(key.secret ?? '')).statusCode).toBe(200);
    const res = await cli('keys', 'revoke', key.id);
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ id: key.id, status: 'revoked' });
    expect(res.stdout).not.toContain(key.secret ?? '');
    const refused = await integration(key.secret ?? '');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ error: { code: 'unauthenticated' } });

    const unknown = await cli('keys', 'revoke', UNKNOWN_ID);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(`no API key has the id ${UNKNOWN_ID}`);
    const none = await cli('keys', 'revoke');
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/exactly one key id/);
  });

  it('keys rotate: a new key with the same scopes; the old key works until the grace period ends, then 401', async () => {
    const old = await created('--application', applicationId, '--environment', 'test', '--scope', 'activity:read');
    const res = await cli('keys', 'rotate', old.id, '--grace-seconds', '10');
    expect(res.code, res.stderr).toBe(0);
    const { key, previous } = JSON.parse(res.stdout) as { key: KeyOutput; previous: KeyOutput };
    expect(key.id).not.toBe(old.id);
    expect(key).toMatchObject({ applicationId, environment: 'test', scopes: ['activity:read'], status: 'active' });
    expect(key.secret).toMatch(/^wsk_test_/);
    expect(previous).toMatchObject({ id: old.id, status: 'active' });
    expect(previous.secret).toBeUndefined();
    const expiresAt = Date.parse(previous.expiresAt ?? '');
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(10_000);

    expect((await integration(key.secret ?? '')).statusCode).toBe(200);
    expect((await integration(old.secret ?? '')).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 200));
    const expired = await integration(old.secret ?? '');
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    expect((await integration(key.secret ?? '')).statusCode).toBe(200);

    // Listed as expired now; rotating it again is refused.
    const listed = JSON.parse((await cli('keys', 'list', '--application', applicationId)).stdout).keys as KeyOutput[];
    expect(listed.find((k) => k.id === old.id)?.status).toBe('expired');
    const again = await cli('keys', 'rotate', old.id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/is expired: nothing to rotate/);
  });

  it('keys rotate defaults to a 24 h grace period; bad grace and unknown ids are clear errors', async () => {
    const old = await created('--application', applicationId, '--environment', 'live');
    const before = Date.now();
    const res = await cli('keys', 'rotate', old.id);
    expect(res.code, res.stderr).toBe(0);
    const { key, previous } = JSON.parse(res.stdout) as { key: KeyOutput; previous: KeyOutput };
    const expiresAt = Date.parse(previous.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 86_400_000 - 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 86_400_000);
    expect((await integration(old.secret ?? '')).statusCode).toBe(200);
    expect((await integration(key.secret ?? '')).statusCode).toBe(200);

    for (const [args, message] of [
      [['rotate', UNKNOWN_ID], /no API key has the id/],
      [['rotate', key.id, '--grace-seconds', 'soon'], /--grace-seconds must be a whole number/],
      [['rotate', key.id, '--grace-seconds', '99999999'], /grace seconds must be an integer from 0 to/],
      [['frobnicate'], /unknown keys action "frobnicate"/],
      [[], /keys needs an action/],
    ] as Array<[string[], RegExp]>) {
      const bad = await cli('keys', ...args);
      expect(bad.code, args.join(' ')).not.toBe(0);
      expect(bad.stderr).toMatch(message);
      expect(bad.stdout).toBe('');
    }
  });
});
