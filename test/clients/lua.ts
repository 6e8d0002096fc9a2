import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.ts';

/**
 * Running the game-server client (clients/roblox) under Lua 5.1: its busted suite and its end-to-end scripts
 * (`e2e/*.lua`), which drive a real gateway over LuaSocket and print one JSON summary line.
 */
export const CLIENT_DIR = join(ROOT, 'clients/roblox');
const LUA_PATH = ['src/WorkspaceGateway/Core/?.lua', 'spec/support/?.lua', 'e2e/?.lua', ''].join(';') + ';';

function which(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export const lua = which('lua5.1');
export const busted = which('busted');
/** True when the Lua tools are not installed (then the Lua tests say so loudly, and fail the run under CI). */
export const luaToolsMissing = !lua || !busted;
if (luaToolsMissing) {
  const message = 'lua5.1 and busted are required for the game-server client tests (Debian: lua5.1 lua-busted lua-socket)';
  if (process.env.CI === 'true') throw new Error(`${message}; CI requires them.`);
  console.error(`\n!! ${message}; the Lua tests are NOT running.\n`);
}

export interface LuaRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `lua5.1 args…` in clients/roblox with the module's LUA_PATH; rejects after `timeoutMs`. */
export function runLua(args: string[], env: Record<string, string>, timeoutMs: number): Promise<LuaRun> {
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

/** The summary an e2e script prints as its last line of output. */
export function luaSummary<T>(run: LuaRun): T {
  return JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '') as T;
}
