import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyProvisioning } from '../../../src/provisioning/apply.ts';
import { systemClock } from '../../../src/shared/clock.ts';
import { runCli } from '../../helpers/cli.ts';
import { createTestDatabase } from '../../helpers/stores.ts';
import { FakeOpenCloud, type FakeGroupRole } from './fake-open-cloud.ts';
import { GROUP_ID, rankDocument } from './world.ts';

/**
 * `roblox roles --group <id>` as a process, against a fake Open Cloud (a real HTTP server answering List Group Roles
 * as Roblox documents it). It opens no database: the DATABASE_URL it is given names a file that never appears.
 */

const KEY = 'ocak_SECRET_roles_listing_key_0123456789abcdefghijklmnopqrstuvwxyz';

function role(id: string, displayName: string, rank: number, memberCount: number): FakeGroupRole {
  return {
    path: `groups/${GROUP_ID}/roles/${id}`,
    createTime: '2025-01-02T03:04:05.678Z',
    updateTime: '2025-01-02T03:04:05.678Z',
    id,
    displayName,
    description: `${displayName} of the group`,
    rank,
    memberCount,
    permissions: { viewWallPosts: true, createWallPosts: rank > 0 },
  };
}

// In the order Open Cloud pages through them, which is not the ranks' order.
const ROLES = [
  role('1', 'Guest', 0, 0),
  role('255', 'Owner', 255, 1),
  role('102', 'Moderator', 20, 14),
  role('101', 'Trainee', 10, 40),
  role('104', 'Helper', 15, 3),
  role('103', 'Senior Moderator', 30, 5),
];

describe('roblox roles --group <id>', { timeout: 120_000 }, () => {
  let fake: FakeOpenCloud;
  let dir: string;
  let file: string;
  beforeAll(async () => {
    fake = await FakeOpenCloud.start();
    dir = mkdtempSync(join(tmpdir(), 'wsg-roblox-roles-'));
    file = join(dir, 'absent', 'gateway.db');
  });
  afterAll(async () => {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.calls.length = 0;
    fake.groupRoles = ROLES;
    fake.rolesPageLimit = 4;
    fake.answer = () => ({ status: 200 });
  });

  const env = (extra: Record<string, string> = {}) => ({
    ROBLOX_API_URL: fake.baseUrl,
    ROBLOX_API_KEY: KEY,
    DATABASE_URL: `sqlite:${file}`,
    ...extra,
  });

  it('pages through the group\'s roles with the key in x-api-key and prints them as ranks, by rank, without the guest role', async () => {
    const result = await runCli(['roblox', 'roles', '--group', GROUP_ID], env());
    expect(result.code, result.stderr).toBe(0);
    const ranks = JSON.parse(result.stdout) as unknown;
    expect(ranks).toEqual([
      { name: 'Trainee', roleId: '101', order: 10 },
      { name: 'Helper', roleId: '104', order: 15 },
      { name: 'Moderator', roleId: '102', order: 20 },
      { name: 'Senior Moderator', roleId: '103', order: 30 },
      { name: 'Owner', roleId: '255', order: 255, assignable: false },
    ]);
    // Two pages: the second asked for with the first's token.
    expect(fake.calls.map((call) => call.method)).toEqual(['GET', 'GET']);
    const [first, second] = fake.calls.map((call) => new URL(call.path, fake.baseUrl));
    expect(first!.pathname).toBe(`/cloud/v2/groups/${GROUP_ID}/roles`);
    expect(first!.searchParams.get('maxPageSize')).toBe('20');
    expect(first!.searchParams.has('pageToken')).toBe(false);
    expect(second!.pathname).toBe(`/cloud/v2/groups/${GROUP_ID}/roles`);
    expect(second!.searchParams.get('pageToken')).toBeTruthy();
    expect(fake.calls.every((call) => call.apiKey === KEY)).toBe(true);
    expect(result.stdout + result.stderr).not.toContain(KEY);
    expect(existsSync(file)).toBe(false);

    // What it prints is a provisioning document's ranks as they are.
    const database = await createTestDatabase('sqlite');
    const store = database.open();
    try {
      const doc = rankDocument();
      doc.workspaces[0]!.ranks = ranks as NonNullable<(typeof doc.workspaces)[0]['ranks']>;
      await applyProvisioning(store.db, doc, systemClock);
      const stored = await store.db.selectFrom('ranks').select(['name', 'role_id', 'rank_order']).orderBy('rank_order').execute();
      expect(stored.map((row) => row.name)).toEqual(['Trainee', 'Helper', 'Moderator', 'Senior Moderator', 'Owner']);
    } finally {
      await store.close();
      await database.drop();
    }
  });

  it('one page is one call; the key may come from the variable --api-key-env names', async () => {
    fake.rolesPageLimit = 20;
    const result = await runCli(['roblox', 'roles', '--group', GROUP_ID, '--api-key-env', 'GROUP_KEY'], env({ ROBLOX_API_KEY: '', GROUP_KEY: KEY }));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(5);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]!.apiKey).toBe(KEY);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('Roblox\'s refusal (403 PERMISSION_DENIED) is shown on stderr with exit 1, nothing on stdout, without the key', async () => {
    fake.answer = () => ({ status: 403, code: 'PERMISSION_DENIED', message: 'The API key does not have the group:read scope.' });
    const result = await runCli(['roblox', 'roles', '--group', GROUP_ID], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('workspace-gateway: Open Cloud refused to list the group\'s roles (HTTP 403 PERMISSION_DENIED)');
    expect(result.stderr).toContain('The API key does not have the group:read scope.');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain(KEY);
    expect(fake.calls).toHaveLength(1);
    expect(existsSync(file)).toBe(false);
  });

  it('refuses without a key, and refuses a key given on the command line without repeating it, calling nothing', async () => {
    const unset = await runCli(['roblox', 'roles', '--group', GROUP_ID], env({ ROBLOX_API_KEY: '' }));
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain('ROBLOX_API_KEY is not set');
    const unnamed = await runCli(['roblox', 'roles', '--group', GROUP_ID, '--api-key-env', 'NO_SUCH_VARIABLE'], env());
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('the variable --api-key-env names is not set');
    for (const args of [
      ['roblox', 'roles', '--group', GROUP_ID, '--api-key', KEY],
      ['roblox', 'roles', '--group', GROUP_ID, `--api-key=${KEY}`],
      ['roblox', 'roles', '--group', GROUP_ID, KEY],
      ['roblox', 'roles', '--group', GROUP_ID, '--api-key-env', KEY.replace(/_/g, '-')],
    ]) {
      const result = await runCli(args, env({ ROBLOX_API_KEY: '' }));
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/takes no --api-key|takes no arguments|must be the name of an environment variable/);
      expect(result.stderr).not.toContain(KEY);
      expect(result.stderr).not.toContain(KEY.replace(/_/g, '-'));
    }
    expect(fake.calls).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });
});
