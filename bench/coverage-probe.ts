/**
 * Loaded into the gateway process under test by `npm run bench:trace` (`node --import <this file>`), never part of
 * the product: runs V8's precise coverage (function call counts) from before the gateway's first module loads, and
 * answers `take` on the Unix socket named by `WSG_BENCH_COVERAGE_SOCKET` with the files under src/ that ran code
 * since the previous take (`Profiler.takePreciseCoverage` resets the counts), and the PostgreSQL statements and
 * transactions the gateway sent since then (statement-count.ts; it wraps `query` of the `pg` client the gateway's
 * entry point resolves). One JSON object per line each way,
 * like event-loop-probe.ts, and a socket for the same reason: the gateway may re-execute itself at start
 * (bin/workspace-gateway.js). Without the variable, or in a worker thread, it does nothing; the background
 * thread's code is therefore not counted.
 */
import { rmSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { isMainThread } from 'node:worker_threads';
import { REPO_ROOT } from './paths.ts';
import { filesRun, type ScriptCoverage } from './request-files.ts';
import { queryText, StatementCounter, type StatementCounts } from './statement-count.ts';

/** The variable naming the socket the probe listens on. */
export const COVERAGE_SOCKET_VARIABLE = 'WSG_BENCH_COVERAGE_SOCKET';

export interface CoverageRequest {
  readonly probe: 'take';
  readonly id: number;
}

export interface CoverageReply {
  readonly id: number;
  /** Paths relative to the repository, sorted. */
  readonly files?: readonly string[];
  /** PostgreSQL statements and transactions since the previous take (none on SQLite). */
  readonly statements?: StatementCounts;
  readonly error?: string;
}

type Query = (this: object, ...args: unknown[]) => unknown;

/**
 * Counts what the gateway's `pg` clients send, if the gateway's entry point (argv[1]) resolves `pg`: the store's
 * pool and the webhook dispatcher's. Both the CommonJS and the ECMAScript entry of `pg` share its Client class.
 */
function countPostgresStatements(counter: StatementCounter): void {
  let pg: { Client: { prototype: { query: Query } } };
  try {
    pg = createRequire(process.argv[1] ?? import.meta.url)('pg') as typeof pg;
  } catch {
    return;
  }
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: object, ...args: unknown[]): unknown {
    counter.count(this, queryText(args[0]));
    return query.apply(this, args);
  };
}

const socketPath = process.env[COVERAGE_SOCKET_VARIABLE];
if (socketPath !== undefined && isMainThread) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  // Call counts, function granularity: enough to tell whether a file ran, at the least cost to the gateway.
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  const counter = new StatementCounter();
  countPostgresStatements(counter);
  const answer = async (request: CoverageRequest): Promise<CoverageReply> => {
    try {
      const { result } = await session.post('Profiler.takePreciseCoverage');
      return { id: request.id, files: filesRun(result as ScriptCoverage[], REPO_ROOT), statements: counter.take() };
    } catch (error) {
      return { id: request.id, error: error instanceof Error ? error.message : String(error) };
    }
  };
  const server = createServer((socket) => {
    // Neither the socket nor the listener may keep the server alive once it has closed everything else on SIGTERM.
    socket.unref();
    socket.on('error', () => undefined);
    createInterface({ input: socket }).on('line', (line) => {
      void answer(JSON.parse(line) as CoverageRequest).then((reply) => socket.write(`${JSON.stringify(reply)}\n`));
    });
  });
  // The gateway may re-execute itself (bin/workspace-gateway.js): the process before that listened here first.
  rmSync(socketPath, { force: true });
  server.on('error', (error) => {
    console.error(`the coverage probe cannot listen on ${socketPath}: ${error.message}`);
  });
  server.listen(socketPath);
  server.unref();
}
