/**
 * The gateway under test, as a separate process started from the built package exactly as an operator would:
 * `node bin/workspace-gateway.js serve`. Memory is read from /proc/<pid>/status, CPU through cpu.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuMeter, type CpuMeter } from './cpu.ts';
import { PROBE_SOCKET_VARIABLE, type EventLoopDelay, type ProbeReply, type ProbeRequest } from './event-loop-probe.ts';
import { DASHBOARD_JWT_SECRET } from './dashboard.ts';
import { receiverCertificate } from './receiver-tls.ts';
import { EVENT_LOOP_PROBE, SERVER_BIN } from './paths.ts';

/** Long enough that no shift started by the benchmark times out during the run. */
const SHIFT_TIMEOUT_SECONDS = '86400';
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;

export interface ProcessSample {
  /** Resident set size now, MiB. */
  readonly rssMb: number;
  /** Peak resident set size since the process started (VmHWM), MiB. */
  readonly peakRssMb: number;
}

export interface ServerProcess {
  readonly pid: number;
  readonly baseUrl: string;
  readonly logPath: string;
  sample(): ProcessSample;
  /** CPU of the gateway and, when it runs here, the database server. */
  readonly meter: CpuMeter;
  /** The server's event-loop delay since the last reset (measured inside the server process). */
  readonly eventLoop: {
    reset(): Promise<void>;
    read(): Promise<EventLoopDelay>;
  };
  /** SIGTERM, then waits for the exit; resolves with the exit code (null when it had to be killed). */
  stop(): Promise<number | null>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function statusKb(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) : 0;
}

export function sampleProcess(pid: number): ProcessSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rssMb: statusKb(status, 'VmRSS') / 1024, peakRssMb: statusKb(status, 'VmHWM') / 1024 };
}

function logTail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

export interface ServerOptions {
  readonly databaseUrl: string;
  readonly logPath: string;
  /** When set, the server runs with --cpu-prof and writes its profile here on exit. */
  readonly profileDir?: string;
  /** Entry point to run instead of this repository's bin/workspace-gateway.js. */
  readonly serverBin?: string;
  /** The PostgreSQL server's postmaster, when it runs on this machine: its CPU is counted with the gateway's. */
  readonly postmasterPid?: number | null;
  /** Further modules to preload with --import (another probe, like coverage-probe.ts). */
  readonly preload?: readonly string[];
  /** Variables to set in the server's environment besides the benchmark's own (those a preloaded probe reads). */
  readonly env?: Readonly<Record<string, string>>;
}

export async function startServer(options: ServerOptions): Promise<ServerProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = openSync(options.logPath, 'a');
  const probeSocket = join(tmpdir(), `wsg-bench-probe-${process.pid}-${port}.sock`);
  rmSync(probeSocket, { force: true });
  const nodeArgs = [
    '--import',
    pathToFileURL(EVENT_LOOP_PROBE).href,
    ...(options.preload ?? []).flatMap((module) => ['--import', pathToFileURL(module).href]),
    ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    SHIFT_TIMEOUT_SECONDS,
    // The dataset holds a year of recorded commands (applications-plan.ts): the retention job would prune half of
    // it a minute into the run. bench/prune.ts measures the job on its own.
    RETENTION_DAYS: '0',
    GATEWAY_ENV: 'benchmark',
    // The per-key rate limiter runs (its cost is part of every request) with a limit no scenario reaches.
    RATE_LIMIT_MAX: '1000000000',
    // The webhook scenarios deliver to a receiver on this machine.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // ... over HTTPS, with a certificate made for the run.
    NODE_EXTRA_CA_CERTS: receiverCertificate().certFile,
    // The reviewers' reads authenticate dashboard tokens the benchmark signs (dashboard.ts).
    JWT_SECRET: DASHBOARD_JWT_SECRET,
    [PROBE_SOCKET_VARIABLE]: probeSocket,
    ...options.env,
  };
  for (const name of ['PORT', 'HOST', 'DATABASE_URL', 'NODE_OPTIONS', 'REDIS_URL', 'JWT_JWKS_URL', 'JWT_ISSUER', 'JWT_AUDIENCE']) delete env[name];
  const child = spawn(
    process.execPath,
    [...nodeArgs, options.serverBin ?? SERVER_BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--database-url', options.databaseUrl],
    { env, stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server process did not start');

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited (${child.exitCode ?? child.signalCode}) before answering:\n${logTail(options.logPath)}`);
    }
    try {
      const response = await fetch(`${baseUrl}/health`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not answer /health within ${READY_TIMEOUT_MS / 1000} s:\n${logTail(options.logPath)}`);
    }
    await sleep(100);
  }

  const probe = await probeClient(probeSocket);

  let stopping: Promise<number | null> | undefined;
  return {
    pid,
    baseUrl,
    logPath: options.logPath,
    sample: () => sampleProcess(pid),
    meter: cpuMeter(pid, options.postmasterPid ?? null),
    eventLoop: {
      reset: async () => {
        await probe('reset');
      },
      read: () => probe('read'),
    },
    stop() {
      stopping ??= (async () => {
        probe.close();
        const exit = exited(child);
        child.kill('SIGTERM');
        const abort = new AbortController();
        const timer = sleep(STOP_TIMEOUT_MS, 'timeout' as const, { signal: abort.signal }).catch(() => 'aborted' as const);
        const first = await Promise.race([exit, timer]);
        abort.abort();
        if (first === 'timeout') child.kill('SIGKILL');
        const code = await exit;
        rmSync(probeSocket, { force: true });
        return first === 'timeout' ? null : code;
      })();
      return stopping;
    },
  };
}

export function serverLogTail(server: ServerProcess): string {
  return logTail(server.logPath);
}

/** The event-loop probe's socket in the server (event-loop-probe.ts): one request at a time, answered in order. */
async function probeClient(path: string): Promise<((kind: ProbeRequest['probe']) => Promise<EventLoopDelay>) & { close(): void }> {
  const socket: Socket = await new Promise((resolve, reject) => {
    const made = connect(path, () => resolve(made));
    made.once('error', reject);
  });
  const waiting = new Map<number, (delay: EventLoopDelay) => void>();
  createInterface({ input: socket }).on('line', (line) => {
    const reply = JSON.parse(line) as ProbeReply;
    waiting.get(reply.id)?.(reply.delay);
    waiting.delete(reply.id);
  });
  socket.on('error', () => undefined);
  let nextId = 0;
  const ask = (kind: ProbeRequest['probe']): Promise<EventLoopDelay> => {
    nextId += 1;
    const id = nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the server did not answer the event-loop probe'));
      }, 10_000);
      waiting.set(id, (delay) => {
        clearTimeout(timer);
        resolve(delay);
      });
      socket.write(`${JSON.stringify({ probe: kind, id } satisfies ProbeRequest)}\n`);
    });
  };
  return Object.assign(ask, { close: () => socket.destroy() });
}
