import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { inject } from 'vitest';
import { ROOT } from '../helpers/cli.ts';

/**
 * Running the game-server client (clients/roblox) under Lua 5.1: its busted suite and its end-to-end scripts
 * (`e2e/*.lua`), which drive a real gateway over LuaSocket and print one JSON summary line.
 */
export const CLIENT_DIR = join(ROOT, 'clients/roblox');
const LUA_PATH = ['src/WorkspaceGateway/Core/?.lua', 'spec/support/?.lua', 'e2e/?.lua', ''].join(';') + ';';

/** lua5.1 and busted, as found when the run began (test/helpers/prerequisites.ts), or null when missing. */
const tools = inject('prerequisites').lua;
export const lua = tools?.lua;
export const busted = tools?.busted;
/** True when the Lua tools are not installed: the Lua tests are skipped (the run says so once, and fails under CI). */
export const luaToolsMissing = tools === null;

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
