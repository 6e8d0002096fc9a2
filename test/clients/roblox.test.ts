import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, startCli, type ServingProcess } from '../helpers/cli.ts';
import type { FetchedResponse } from '../helpers/contract.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';

/**
 * The game-server client (clients/roblox): its busted unit suite under Lua 5.1, and an end-to-end run in
 * which the Lua core, over real HTTP, drives a real gateway process on each store.
 */
const CLIENT_DIR = join(ROOT, 'clients/roblox');
const LUA_PATH = ['src/WorkspaceGateway/Core/?.lua', 'spec/support/?.lua', 'e2e/?.lua', ''].join(';') + ';';

function which(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

const lua = which('lua5.1');
const busted = which('busted');
const toolsMissing = !lua || !busted;
if (toolsMissing) {
  const message = 'lua5.1 and busted are required for the game-server client tests (Debian: lua5.1 lua-busted lua-socket)';
  if (process.env.CI === 'true') throw new Error(`${message}; CI requires them.`);
  console.error(`\n!! ${message}; the Lua tests are NOT running.\n`);
}

interface LuaRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runLua(args: string[], env: Record<string, string>, timeoutMs: number): Promise<LuaRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(lua ?? 'lua5.1', args, {
      cwd: CLIENT_DIR,
      env: { ...process.env, LUA_PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`lua ${args.join(' ')} timed out:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(toolsMissing)('game-server client: busted unit suite (Lua 5.1)', () => {
  it('passes, every test run and none pending', async () => {
    const run = await runLua([busted ?? 'busted', '--output=json'], {}, 120_000);
    const report = JSON.parse(run.stdout) as {
      successes: unknown[];
      failures: Array<{ name: string; message: string }>;
      errors: Array<{ name: string; message: string }>;
      pendings: unknown[];
    };
    expect([...report.failures, ...report.errors].map((f) => `${f.name}: ${f.message}`)).toEqual([]);
    expect(report.pendings).toEqual([]);
    expect(report.successes.length).toBeGreaterThanOrEqual(50);
    expect(run.code).toBe(0);
  });
});

interface Summary {
  shifts: Record<string, string>;
  leaver: string;
  saw429: boolean;
  retriedAfter429: boolean;
  notStaff: Record<string, string>;
  /** Logical starts (distinct Idempotency-Keys) for the player who is not staff, rejoin included. */
  notStaffStarts: number;
  fullHeartbeatBatches: number;
  shutdown: { ok: boolean; stopped: number };
  requests: number;
  logs: string[];
}

interface ShiftView {
  id: string;
  status: string;
  startedAt: string;
  lastHeartbeatAt: string;
  endedAt?: string;
  endReason?: string;
}

const UNIVERSE = '4242';
const STAFF = ['31001', '31002', '31003', '31004'];
const NOT_STAFF = '39999';
const LEAVER = '31002';
const BATCH_PATHS = ['/v1/activity/shifts/heartbeats', '/v1/activity/servers/{serverId}/stop'];

function provisioningDocument(ids: { workspace: string; application: string; gameKey: string; readKey: string }) {
  return {
    workspaces: [
      {
        id: ids.workspace,
        name: 'Game servers',
        slug: `game-servers-${ids.workspace.slice(0, 8)}`,
        staff: STAFF.map((gameUserId) => ({
          id: randomUUID(),
          displayName: `Staff ${gameUserId}`,
          gameUserId,
          gameUsername: `staff_${gameUserId}`,
          status: 'active',
        })),
        applications: [
          {
            id: ids.application,
            name: 'Main game',
            approved: true,
            allowedUniverseIds: [UNIVERSE],
            features: { activity: true },
            keys: [
              { id: ids.gameKey, environment: 'test', scopes: ['activity:write'] },
              { id: ids.readKey, environment: 'test', scopes: ['activity:read'] },
            ],
          },
        ],
      },
    ],
  };
}

describe.skipIf(toolsMissing).each(STORE_KINDS)('game-server client end to end (%s)', (kind) => {
  let database: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    dir = mkdtempSync(join(tmpdir(), 'wsg-roblox-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'joins, a 429 burst, batch heartbeats, a leave and a shutdown end every shift as the API then shows',
    async () => {
      const ids = { workspace: randomUUID(), application: randomUUID(), gameKey: randomUUID(), readKey: randomUUID() };
      const document = join(dir, 'provision.json');
      writeFileSync(document, JSON.stringify(provisioningDocument(ids)));
      const provisioned = await runCli(['provision', document], { DATABASE_URL: database.url });
      expect(provisioned.code, provisioned.stderr).toBe(0);
      const keys = (JSON.parse(provisioned.stdout) as { keys: Array<{ id: string; secret: string }> }).keys;
      const gameKey = keys.find((k) => k.id === ids.gameKey)?.secret;
      const readKey = keys.find((k) => k.id === ids.readKey)?.secret;
      if (!gameKey || !readKey) throw new Error('provisioning printed no keys');

      // Two requests a second per key: the client's burst of five starts is certain to meet a 429.
      const server: ServingProcess = await startCli(['serve', '--port', '0', '--database-url', database.url], {
        RATE_LIMIT_MAX: '2',
        RATE_LIMIT_WINDOW_SECONDS: '1',
      });
      try {
        const paths = Object.keys(((await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { paths: object }).paths);
        expect(BATCH_PATHS.filter((p) => !paths.includes(p)), 'batch calls the module needs').toEqual([]);

        const run = await runLua(
          ['e2e/run.lua'],
          {
            GATEWAY_URL: server.baseUrl,
            GATEWAY_API_KEY: gameKey,
            E2E_STAFF: STAFF.join(','),
            E2E_NOT_STAFF: NOT_STAFF,
            E2E_LEAVER: LEAVER,
            E2E_UNIVERSE_ID: UNIVERSE,
          },
          150_000,
        );
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout + run.stderr).not.toContain(gameKey);
        const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as Summary;
        expect(summary.logs.join('\n')).not.toContain(gameKey);

        expect(summary.saw429).toBe(true);
        expect(summary.retriedAfter429).toBe(true);
        expect(summary.notStaff).toEqual({ [NOT_STAFF]: 'not_staff' });
        expect(summary.notStaffStarts).toBe(1);
        expect(summary.fullHeartbeatBatches).toBeGreaterThanOrEqual(2);
        expect(summary.shutdown).toEqual({ ok: true, stopped: STAFF.length - 1 });
        expect(Object.keys(summary.shifts).sort()).toEqual([...STAFF].sort());

        // Read back through the API with the read-only key (rate limited too: honour Retry-After).
        const get = async (path: string): Promise<FetchedResponse> => {
          for (let attempt = 0; attempt < 20; attempt++) {
            const res = await server.request(path, { headers: { authorization: `Bearer ${readKey}` } });
            if (res.statusCode !== 429) return res;
            await new Promise((r) => setTimeout(r, 1000 * Number(res.headers['retry-after'] ?? 1)));
          }
          throw new Error(`still rate limited: ${path}`);
        };
        for (const gameUserId of STAFF) {
          const shiftId = summary.shifts[gameUserId];
          const res = await get(`/v1/activity/shifts/${shiftId}`);
          expect(res.statusCode).toBe(200);
          const shift = (res.json() as { data: { shift: ShiftView } }).data.shift;
          expect(shift.status).toBe('completed');
          expect(shift.endReason).toBe(gameUserId === LEAVER ? 'player_left' : 'server_shutdown');
          expect(Date.parse(shift.lastHeartbeatAt)).toBeGreaterThan(Date.parse(shift.startedAt));
          expect(Date.parse(shift.endedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(shift.lastHeartbeatAt));
        }
        const active = await get('/v1/activity/shifts/active');
        expect(active.statusCode).toBe(200);
        expect((active.json() as { data: { shifts: unknown[] } }).data.shifts).toEqual([]);
      } finally {
        expect(await server.stop('SIGTERM')).toBe(0);
      }
    },
    240_000,
  );
});
