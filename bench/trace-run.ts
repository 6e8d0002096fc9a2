/**
 * One store's measurement for `npm run bench:trace` (trace.ts): a small dataset in a database of its own, the
 * gateway started as the benchmark starts it (server.ts) with the coverage probe (coverage-probe.ts), every
 * request kind warmed up so lazy paths (compiled validators, prepared statements, caches) have run, then per kind
 * and repeat: the files an idle window runs, and the files a window with one request runs (see request-files.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { COVERAGE_SOCKET_VARIABLE, type CoverageReply, type CoverageRequest } from './coverage-probe.ts';
import { prepareSqlite, preparePostgres, type PreparedDatabase } from './database.ts';
import { COVERAGE_PROBE } from './paths.ts';
import { PROFILES, type Profile } from './profiles.ts';
import { beyond, kindFiles, type KindFiles, type Sample } from './request-files.ts';
import { NO_STATEMENTS, type StatementCounts } from './statement-count.ts';
import { TRACE_WEBHOOK_POLL_INTERVAL_MS } from './trace-options.ts';
import { REFERENCE_KIND, traceRequests, type KindName, type RequestKind } from './trace-requests.ts';
import { startServer, type ServerProcess } from './server.ts';
import type { StoreName } from './targets.ts';

/** Enough data for every request kind to find what it needs; the files a request runs do not depend on its size. */
export const TRACE_PROFILE: Profile = {
  ...PROFILES.quick,
  big: { staff: 80, shifts: 800 },
  small: { count: 0, staff: 0, shifts: 0 },
  submissions: 20,
  heartbeatShifts: 1,
};

export interface TraceOptions {
  /** The kinds to measure; the reference (`health`) is measured whether listed or not. */
  readonly kinds: readonly KindName[];
  readonly repeats: number;
  /** Requests of each kind before measuring. */
  readonly warmup: number;
  /** Milliseconds each window (idle, and after the request) lasts. */
  readonly waitMs: number;
  readonly postgresUrl: string;
  /** Keep the database and the run directory. */
  readonly keep: boolean;
  /** Ends the run between two requests (an interrupt): the server is stopped and the database dropped all the same. */
  readonly signal?: AbortSignal;
}

export interface KindTrace extends KindFiles {
  readonly title: string;
  /** PostgreSQL statements and transactions of the window holding the request, each repeat (zero on SQLite). */
  readonly statements: readonly StatementCounts[];
  /** In every repeat of this kind and in no repeat of `GET /health`. */
  readonly beyondReference: readonly string[];
}

export interface StoreTrace {
  readonly store: StoreName;
  readonly engineVersion: string;
  readonly kinds: readonly KindTrace[];
}

/** What the probe saw since the previous take. */
interface Taken {
  readonly files: readonly string[];
  readonly statements: StatementCounts;
}

type Take = (() => Promise<Taken>) & { close(): void };

/** The coverage probe's socket in the server: one take at a time, answered in order. */
async function coverageClient(path: string): Promise<Take> {
  const socket: Socket = await new Promise((resolve, reject) => {
    const made = connect(path, () => resolve(made));
    made.once('error', reject);
  });
  const waiting = new Map<number, (reply: CoverageReply) => void>();
  createInterface({ input: socket }).on('line', (line) => {
    const reply = JSON.parse(line) as CoverageReply;
    waiting.get(reply.id)?.(reply);
    waiting.delete(reply.id);
  });
  socket.on('error', () => undefined);
  let nextId = 0;
  const take = (): Promise<Taken> => {
    nextId += 1;
    const id = nextId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('the server did not answer the coverage probe'));
      }, 30_000);
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.files) resolve({ files: reply.files, statements: reply.statements ?? NO_STATEMENTS });
        else reject(new Error(`the coverage probe failed: ${reply.error ?? 'no answer'}`));
      });
      socket.write(`${JSON.stringify({ probe: 'take', id } satisfies CoverageRequest)}\n`);
    });
  };
  return Object.assign(take, { close: () => socket.destroy() });
}

/**
 * Files run by an idle window, then by a window holding the one request (each `waitMs` long), and the statements
 * the window holding the request sent.
 */
async function measureOnce(
  kind: RequestKind,
  take: Take,
  waitMs: number,
  signal: AbortSignal | undefined,
): Promise<Sample & { readonly statements: StatementCounts }> {
  if (kind.before) {
    await kind.before();
    // What the preparation left running after its answer (after-commit work) belongs to neither window.
    await sleep(waitMs, undefined, { signal });
  }
  await take();
  await sleep(waitMs, undefined, { signal });
  const idle = await take();
  await take();
  await kind.send();
  await sleep(waitMs, undefined, { signal });
  const request = await take();
  await kind.after?.();
  return { idle: idle.files, request: request.files, statements: request.statements };
}

async function prepare(store: StoreName, options: TraceOptions, runDir: string, log: (message: string) => void): Promise<PreparedDatabase> {
  const tag = `trace_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  return store === 'sqlite'
    ? prepareSqlite(TRACE_PROFILE, runDir, { fresh: true }, log)
    : preparePostgres(TRACE_PROFILE, options.postgresUrl, tag, log);
}

export async function traceStore(store: StoreName, options: TraceOptions, log: (message: string) => void): Promise<StoreTrace> {
  const runDir = mkdtempSync(join(tmpdir(), `wsg-trace-${store}-`));
  const prepared = await prepare(store, options, runDir, log);
  const socket = join(tmpdir(), `wsg-trace-${process.pid}-${Math.random().toString(36).slice(2, 8)}.sock`);
  let server: ServerProcess | undefined;
  let take: Take | undefined;
  try {
    server = await startServer({
      databaseUrl: prepared.url,
      logPath: join(runDir, 'server.log'),
      preload: [COVERAGE_PROBE],
      env: { [COVERAGE_SOCKET_VARIABLE]: socket, WEBHOOK_POLL_INTERVAL_MS: String(TRACE_WEBHOOK_POLL_INTERVAL_MS) },
    });
    take = await coverageClient(socket);
    const requests = traceRequests(server.baseUrl, prepared.plan, `trace-${Date.now().toString(36)}`);
    await requests.setUp();
    const names: KindName[] = [REFERENCE_KIND, ...options.kinds.filter((name) => name !== REFERENCE_KIND)];
    const kinds = names.map((name) => requests.kinds[name]);
    const warmStarted = performance.now();
    for (const kind of kinds) {
      for (let i = 0; i < options.warmup; i += 1) {
        options.signal?.throwIfAborted();
        await kind.before?.();
        await kind.send();
        await kind.after?.();
      }
    }
    log(`${store}: warmed up with ${options.warmup} requests of each kind in ${((performance.now() - warmStarted) / 1000).toFixed(1)} s`);
    const measured: (KindFiles & { readonly statements: readonly StatementCounts[] })[] = [];
    for (const kind of kinds) {
      const samples: (Sample & { readonly statements: StatementCounts })[] = [];
      for (let i = 0; i < options.repeats; i += 1) samples.push(await measureOnce(kind, take, options.waitMs, options.signal));
      measured.push({ ...kindFiles(kind.name, samples), statements: samples.map((sample) => sample.statements) });
    }
    const reference = measured[0];
    if (!reference) throw new Error('no kind measured');
    return {
      store,
      engineVersion: prepared.engineVersion,
      kinds: measured.map((files, i) => ({ ...files, title: kinds[i]?.title ?? files.kind, beyondReference: beyond(files, reference) })),
    };
  } finally {
    take?.close();
    const exit = await server?.stop();
    if (exit !== undefined && exit !== 0) log(`${store}: the server exited with ${exit ?? 'a kill'} on SIGTERM (see ${join(runDir, 'server.log')})`);
    rmSync(socket, { force: true });
    if (options.keep) {
      log(`${store}: kept the database ${prepared.url} and the run directory ${runDir}`);
    } else {
      await prepared.drop().catch((error: unknown) => log(`${store}: could not drop the database: ${String(error)}`));
      rmSync(runDir, { recursive: true, force: true });
    }
  }
}
