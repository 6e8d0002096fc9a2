import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { checkedFetch, checkerFor, type ContractChecker, type FetchedResponse } from './contract.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = `${ROOT}bin/workspace-gateway.js`;

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} timed out`));
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface ServingProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  output(): string;
  /** `fetch(baseUrl + path)`, the response checked against this process's own GET /openapi.json. */
  request(path: string, init?: RequestInit): Promise<FetchedResponse>;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts a long-running CLI command (serve, demo) on a free port and resolves once it listens.
 * `ready` picks the base URL out of the output seen so far.
 */
export function startCli(
  args: string[],
  env: Record<string, string> = {},
  ready: (output: string) => string | undefined = listeningUrl,
): Promise<ServingProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let settled = false;
    const exited = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(new Error(`CLI ${args.join(' ')} did not start:\n${output}`));
    }, 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const baseUrl = ready(output);
      if (baseUrl && !settled) {
        settled = true;
        clearTimeout(timer);
        // This process's document, fetched on the first request (refreshed: an earlier process may have had the port).
        let checker: Promise<ContractChecker> | undefined;
        resolve({
          child,
          baseUrl,
          output: () => output,
          request: async (path, init) => {
            checker ??= checkerFor(baseUrl, { refresh: true });
            await checker;
            return checkedFetch(baseUrl, path, init);
          },
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        reject(new Error(`CLI ${args.join(' ')} exited with ${String(code)}:\n${output}`));
      }
    });
  });
}

/** Base URL from pino's "Server listening at http://…" line. */
export function listeningUrl(output: string): string | undefined {
  const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
  return match?.[1];
}
