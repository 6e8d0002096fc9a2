/**
 * Real `serve` processes for the crash and several-instances tests: the built CLI on 127.0.0.1, a seeded
 * database, plain `fetch` over HTTP, and figures written to test/reliability/.results/.
 *
 * Logging is off (LOG_LEVEL=silent), so readiness is found by polling /health on a port chosen here. Every
 * process started is tracked; `killAll()` (call it from afterAll) SIGKILLs whatever is still running.
 * Every HTTP answer `send()` receives is checked against the process's own GET /openapi.json (fetched at start-up).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { systemClock } from '../../src/shared/clock.ts';
import { newId } from '../../src/shared/ids.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import type { StaffDocument, SubmissionDocument } from '../../src/provisioning/schema.ts';
import { submissionDoc } from '../features/applications/helpers.ts';
import { TEST_JWT_SECRET } from '../helpers/app.ts';
import { BIN, ROOT } from '../helpers/cli.ts';
import { checkerFor, headersOf, type ContractChecker } from '../helpers/contract.ts';
import { buildFixture, dashboardToken, REVIEWER_USER_ID, type Fixture } from '../helpers/fixtures.ts';
import type { TestDatabase } from '../helpers/stores.ts';

export const RESULTS_DIR = fileURLToPath(new URL('.results/', import.meta.url));

/** Writes `figures` to test/reliability/.results/<name>.json. */
export function writeFigures(name: string, figures: unknown): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}${name}.json`, `${JSON.stringify(figures, null, 2)}\n`);
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A port that was free a moment ago (the server may still lose it to another process: start() retries). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Gateway {
  readonly name: string;
  readonly baseUrl: string;
  readonly child: ChildProcess;
  /** stdout and stderr so far (for failure messages). */
  output(): string;
  /** Whether the process has exited. */
  exited(): boolean;
  /** kill -9; resolves once the process is gone. */
  crash(): Promise<void>;
  /** SIGTERM (drain, close the database, exit 0); SIGKILL after 10 s. Resolves with the exit code. */
  stop(): Promise<number | null>;
}

const running = new Set<Gateway>();

export interface GatewayOptions {
  readonly name: string;
  readonly databaseUrl: string;
  readonly env?: Record<string, string>;
  /**
   * Once the process is ready, lowers its open-file limit to the descriptors it has open plus this many (Linux
   * `prlimit`), so that a few connections run it out of descriptors.
   */
  readonly spareFileDescriptors?: number;
}

const READY_TIMEOUT_MS = 30_000;

async function spawnOnce(
  { name, databaseUrl, env = {}, spareFileDescriptors }: GatewayOptions,
  port: number,
): Promise<Gateway> {
  const childEnv: Record<string, string | undefined> = { ...process.env };
  delete childEnv.REDIS_URL;
  delete childEnv.DATABASE_URL;
  Object.assign(childEnv, { LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '0', JWT_SECRET: TEST_JWT_SECRET, GATEWAY_ENV: 'test' }, env);
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', String(port), '--host', '127.0.0.1', '--database-url', databaseUrl],
    { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  let hasExited = false;
  const exit = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      hasExited = true;
      resolve(code);
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const gateway: Gateway = {
    name,
    baseUrl,
    child,
    output: () => output,
    exited: () => hasExited,
    async crash() {
      if (!hasExited) child.kill('SIGKILL');
      await exit;
      running.delete(gateway);
    },
    async stop() {
      if (hasExited) {
        running.delete(gateway);
        return child.exitCode;
      }
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exit;
      clearTimeout(timer);
      running.delete(gateway);
      return code;
    },
  };
  running.add(gateway);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited) {
      running.delete(gateway);
      throw new Error(`gateway ${name} exited during start-up (code ${String(child.exitCode)}):\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(1000) });
      const body = (await res.json()) as { service?: string };
      if (res.status === 200 && body.service === 'workspace-gateway') {
        // This process's document, for send(); fetched now, while it is surely up (a crash test kills it later).
        await checkerFor(baseUrl, { refresh: true });
        if (spareFileDescriptors !== undefined) limitFileDescriptors(child, spareFileDescriptors);
        return gateway;
      }
    } catch {
      // not listening yet
    }
    await sleep(50);
  }
  await gateway.crash();
  throw new Error(`gateway ${name} did not answer /health within ${READY_TIMEOUT_MS} ms:\n${output}`);
}

function limitFileDescriptors(child: ChildProcess, spare: number): void {
  const open = readdirSync(`/proc/${String(child.pid)}/fd`).length;
  const limit = open + spare;
  execFileSync('prlimit', ['--pid', String(child.pid), `--nofile=${limit}:${limit}`]);
}

/** Starts `serve` on a free port and resolves once /health answers. */
export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      return await spawnOnce(options, await freePort());
    } catch (error) {
      // Most likely the port was taken between freePort() and listen(): try another one.
      lastError = error;
    }
  }
  throw lastError;
}

/** SIGKILLs every gateway still running (for afterAll, also after a failure). */
export async function killAll(): Promise<void> {
  await Promise.all([...running].map((gateway) => gateway.crash()));
}

/** One HTTP request of the load, as sent (so it can be replayed byte for byte). */
export interface WireRequest {
  readonly method: 'GET' | 'POST' | 'PATCH';
  readonly path: string;
  readonly headers: Record<string, string>;
  /** JSON text, or undefined for no body. */
  readonly body?: string;
}

export interface WireResponse {
  readonly status: number;
  readonly replayed: boolean;
  /** Parsed JSON (null for an empty body), or the text when it is not JSON. */
  readonly body: unknown;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as received. */
  readonly text: string;
}

/** Checks an HTTP answer to `request` against `checker`; throws a ContractViolation when the document forbids it. */
export function checkWire(checker: ContractChecker, request: Pick<WireRequest, 'method' | 'path'>, response: WireResponse): void {
  checker.check(request.method, request.path, { statusCode: response.status, headers: response.headers, body: response.text });
}

/**
 * Sends the request and checks the answer against the server's own OpenAPI document. Rejects on a network failure
 * (refused, reset, timeout) as `fetch` does, and with a ContractViolation when the answer breaks the contract.
 */
export async function send(baseUrl: string, request: WireRequest, timeoutMs = 15_000): Promise<WireResponse> {
  // Cached at start-up (startGateway); fetched here only for a server started some other way.
  const checker = await checkerFor(baseUrl);
  const res = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body !== undefined ? { body: request.body } : {}),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    // keep the text
  }
  const headers = headersOf(res);
  const response: WireResponse = { status: res.status, replayed: headers['idempotent-replayed'] === 'true', body, headers, text };
  checkWire(checker, request, response);
  return response;
}

export function jsonRequest(
  method: WireRequest['method'],
  path: string,
  credential: string,
  body: unknown,
  idempotencyKey?: string,
): WireRequest {
  const headers: Record<string, string> = { authorization: `Bearer ${credential}` };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  if (body === undefined) return { method, path, headers };
  headers['content-type'] = 'application/json';
  return { method, path, headers, body: JSON.stringify(body) };
}

/** The shape of a start / heartbeat / stop answer. */
export interface ShiftBody {
  readonly data: {
    readonly shift: {
      readonly id: string;
      readonly status: string;
      readonly startedAt?: string;
      readonly lastHeartbeatAt?: string;
      readonly endedAt?: string;
      readonly durationSeconds?: number;
      readonly minutes?: number;
      readonly endReason?: string;
    };
    readonly existing?: boolean;
  };
}

/** The shape of a decision answer. */
export interface DecisionBody {
  readonly data: { readonly submissionId: string; readonly status: string; readonly commandId: string; readonly eventId: string };
}

export interface LoadWorld {
  readonly fixture: Fixture;
  /** Active staff that may start shifts (alice, bob and the added ones; carol is inactive). */
  readonly staff: readonly StaffDocument[];
  readonly submissions: readonly SubmissionDocument[];
  /** Test key with every scope. */
  readonly apiKey: string;
  /** Dashboard token of REVIEWER_USER_ID (every permission), valid for an hour of real time. */
  readonly token: string;
}

/**
 * A fixture with `extraStaff` more active staff (game user ids 1100, 1101, …) and `submissions` submitted
 * applications, seeded into `database` through provisioning.
 */
export async function seedLoadWorld(
  database: TestDatabase,
  counts: { readonly extraStaff: number; readonly submissions: number },
): Promise<LoadWorld> {
  const fixture = buildFixture();
  const added: StaffDocument[] = Array.from({ length: counts.extraStaff }, (_, i) => ({
    id: newId(),
    displayName: `Staff ${i}`,
    gameUserId: String(1100 + i),
    gameUsername: `staff_${i}`,
    chatUserId: String(8800 + i),
    status: 'active',
  }));
  const submissions = Array.from({ length: counts.submissions }, () => submissionDoc());
  fixture.workspace.staff = [...(fixture.workspace.staff ?? []), ...added];
  fixture.workspace.submissions = [...(fixture.workspace.submissions ?? []), ...submissions];
  const store = database.open();
  try {
    await applyProvisioning(store.db, fixture.document, systemClock);
  } finally {
    await store.close();
  }
  return {
    fixture,
    staff: [fixture.staff.alice, fixture.staff.bob, ...added],
    submissions,
    apiKey: fixture.keys.test.secret,
    token: await dashboardToken(REVIEWER_USER_ID, { expiresAt: Date.now() + 60 * 60 * 1000 }),
  };
}

export { sleep };
