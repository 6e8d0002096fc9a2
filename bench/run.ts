/**
 * `npm run bench`: generate data, start the server as a separate process, check and measure every scenario,
 * report. See docs/BENCHMARKS.md (written by benchmarks-doc.ts) for what is measured and how to read it.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pinLoadGenerator } from './affinity.ts';
import { benchmarksDocument } from './benchmarks-doc.ts';
import { buildLabel, compareTable, type BuildRecord } from './compare.ts';
import { findDatabaseServer } from './cpu.ts';
import { BENCH_APPLICATION_NAME, missingPostgres, prepareSqlite, preparePostgres, type PreparedDatabase } from './database.ts';
import { currentLoad, describeMachine } from './machine.ts';
import { measureScenarios, type Measured } from './measure.ts';
import { OptionsError, parseOptions, USAGE, type BenchOptions } from './options.ts';
import { BENCHMARKS_DOC, REPO_ROOT, RESULTS_DIR } from './paths.ts';
import { summarizeProfileFile } from './profile-summary.ts';
import { GENERATOR_VERSION, PROFILES } from './profiles.ts';
import { consoleTable, RECORD_VERSION, runMarkdown, type RunRecord } from './report.ts';
import { SCENARIO_NAMES } from './scenarios.ts';
import { startServer, type ServerProcess } from './server.ts';
import { evaluateTargets, type StoreName } from './targets.ts';

const started = performance.now();
function log(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  process.stdout.write(`[bench ${seconds}s] ${message}\n`);
}

// An error no await caught (a connection's error event, say) is printed where the rest of the run is read.
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    log(`${event}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  });
}

/** What an interrupted run (Ctrl-C, SIGTERM) must undo: stop the server it started, drop its database. */
const onInterrupt = new Set<() => Promise<unknown>>();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`${signal}: stopping the server and dropping the run's database`);
    void Promise.allSettled([...onInterrupt].map((undo) => undo())).then(() => process.exit(130));
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fileStamp(date: Date): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '-');
}

function isExploratory(options: BenchOptions): boolean {
  return (
    options.only !== null ||
    options.phases !== null ||
    !options.baseline ||
    options.durationSeconds !== null ||
    options.connections !== null ||
    options.serverBin !== null ||
    options.compare.length > 0 ||
    !options.pin
  );
}

/** Where the database's CPU comes from, and the postmaster to read it from. */
async function databaseCpu(store: StoreName, prepared: PreparedDatabase): Promise<{ text: string; postmasterPid: number | null }> {
  if (store === 'sqlite') return { text: 'none apart: SQLite runs inside the gateway process', postmasterPid: null };
  const found = await findDatabaseServer(prepared.url, BENCH_APPLICATION_NAME).catch((error: unknown) => ({ reason: errorMessage(error) }));
  if ('reason' in found) {
    log(`WARNING: the database's CPU is not measured: ${found.reason}`);
    return { text: `not measured (${found.reason}): costs are the gateway's alone`, postmasterPid: null };
  }
  if (found.otherSessions > 0) {
    log(`WARNING: ${found.otherSessions} other session(s) on the PostgreSQL server: its CPU figures include their work`);
  }
  return {
    text: `every process of the PostgreSQL server on this machine (postmaster ${found.postmasterPid}); other sessions at the start: ${found.otherSessions}`,
    postmasterPid: found.postmasterPid,
  };
}

interface BuildRun {
  readonly store: StoreName;
  readonly options: BenchOptions;
  readonly prepared: PreparedDatabase;
  readonly runDir: string;
  readonly command: string;
  /** Entry point to run; null for this checkout's. */
  readonly serverBin: string | null;
  readonly database: { readonly text: string; readonly postmasterPid: number | null };
  /** Label of the server's log and profile files in the run directory. */
  readonly label: string;
}

/** Starts one build's server on the prepared database, measures the scenarios, stops it: one run record. */
async function measureBuild(run: BuildRun): Promise<RunRecord> {
  const { store, options, prepared } = run;
  const profile = PROFILES[options.profile];
  const startedAt = new Date();
  const loadAtStart = currentLoad();
  const runTag = `${store}-${fileStamp(startedAt)}-${Math.random().toString(36).slice(2, 6)}`;
  const failures: string[] = [];
  let measured: Measured = { scenarios: [], open: null, targets: [] };
  let peakRssMb = 0;
  let exitCode: number | null = null;
  let pinnedTo: string | null = null;
  const profileDir = options.cpuProfile ? join(run.runDir, `profiles-${run.label}`) : undefined;
  let server: ServerProcess | undefined;
  const undo = async () => server?.stop();
  onInterrupt.add(undo);
  try {
    server = await startServer({
      databaseUrl: prepared.url,
      logPath: join(run.runDir, `server-${run.label}.log`),
      postmasterPid: run.database.postmasterPid,
      ...(profileDir ? { profileDir } : {}),
      ...(run.serverBin ? { serverBin: run.serverBin } : {}),
    });
    log(`server pid ${server.pid} at ${server.baseUrl}${run.serverBin ? ` (${run.serverBin})` : ''}`);
    // Pinned after the server started, which keeps every CPU (see affinity.ts).
    const pin = options.pin ? pinLoadGenerator() : null;
    if (pin && 'cpu' in pin) {
      pinnedTo = pin.cpu;
      log(`load generator held on CPU ${pin.cpu}; the server and the database run on any CPU`);
    } else if (pin) {
      log(`load generator not pinned (${pin.reason})`);
    }
    try {
      measured = await measureScenarios({ store, server, prepared, options, runTag, failures, log, interrupted: () => interrupted });
    } finally {
      if (pin && 'release' in pin) pin.release();
      try {
        peakRssMb = Math.round(server.sample().peakRssMb * 10) / 10;
      } catch {
        failures.push('the server process was gone before the end of the run');
      }
      exitCode = await server.stop();
      if (exitCode !== 0) failures.push(`the server exited with ${exitCode ?? 'a kill'} on SIGTERM (see ${server.logPath})`);
    }
  } catch (error) {
    failures.push(errorMessage(error));
  } finally {
    onInterrupt.delete(undo);
  }
  if (profileDir) {
    // One profile per thread, named CPU.<date>.<time>.<pid>.<thread id>.<n>.cpuprofile (thread 0 is the main
    // thread): the background thread's first, so the main thread's summary is the one at the end of the output.
    const threadOf = (file: string) => Number(file.split('.').at(-3));
    const files = readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'));
    files.sort((a, b) => (threadOf(a) === 0 ? 1 : 0) - (threadOf(b) === 0 ? 1 : 0) || a.localeCompare(b));
    for (const file of files) {
      const summary = summarizeProfileFile(join(profileDir, file));
      writeFileSync(join(profileDir, `${file}.txt`), `${summary}\n`);
      const thread = threadOf(file) === 0 ? 'the main thread' : `worker thread ${threadOf(file)}`;
      log(`CPU profile of ${thread}, ${join(profileDir, file)}:\n${summary}`);
    }
  }
  const plan = prepared.plan;
  return {
    recordVersion: RECORD_VERSION,
    store,
    mode: profile.name,
    exploratory: isExploratory(options),
    command: run.command,
    serverBin: run.serverBin,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    machine: describeMachine(prepared.engineVersion, loadAtStart),
    dataset: {
      generatorVersion: GENERATOR_VERSION,
      seed: plan.seed,
      generatedFor: new Date(plan.now).toISOString(),
      bigWorkspace: { staff: plan.big.staff.length, shifts: plan.big.shifts, timezone: plan.big.timezone },
      smallWorkspaces: { count: plan.small.length, staff: profile.small.staff, shifts: profile.small.shifts },
      generation: prepared.generation,
    },
    load: {
      connections: options.connections ?? profile.connections,
      durationSeconds: options.durationSeconds ?? profile.durationSeconds,
      warmupSeconds: profile.warmupSeconds,
      loadGeneratorCpu: pinnedTo,
    },
    databaseCpu: run.database.text,
    scenarios: measured.scenarios,
    open: measured.open,
    server: { peakRssMb, exitCode },
    targets: [...evaluateTargets(store, measured.scenarios, measured.open, peakRssMb), ...measured.targets],
    failures,
  };
}

function printRecord(record: RunRecord, label: string): void {
  process.stdout.write(`\n${label}:\n${consoleTable(record)}\n\n`);
  if (record.failures.length > 0) {
    process.stdout.write(
      `${label}: ${record.failures.length} FAILURE(S): the run exits non-zero\n${record.failures.map((f) => `  - ${f}`).join('\n')}\n\n`,
    );
  }
}

/** Writes a record: into bench/results (and the doc) for a full run with default options, else the run directory. */
function saveRecord(record: RunRecord, runDir: string, suffix = ''): void {
  const name = `${record.store}-${fileStamp(new Date(record.startedAt))}${suffix}.json`;
  if (record.mode === 'full' && !record.exploratory) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const path = join(RESULTS_DIR, name);
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
    writeFileSync(BENCHMARKS_DOC, benchmarksDocument(RESULTS_DIR, relative(REPO_ROOT, RESULTS_DIR)));
    log(`wrote ${relative(REPO_ROOT, path)} and ${relative(REPO_ROOT, BENCHMARKS_DOC)}`);
    return;
  }
  writeFileSync(join(runDir, name), `${JSON.stringify(record, null, 2)}\n`);
  writeFileSync(join(runDir, `report${suffix}.md`), `${runMarkdown(record, null)}\n`);
  log(`wrote ${join(runDir, name)} and report${suffix}.md (${record.mode === 'quick' ? 'quick' : 'exploratory'} runs leave docs/ alone)`);
}

async function runStore(store: StoreName, options: BenchOptions, command: string): Promise<boolean> {
  const profile = PROFILES[options.profile];
  const runDir = mkdtempSync(join(tmpdir(), `wsg-bench-${store}-`));
  const tag = `${store}-${fileStamp(new Date())}-${Math.random().toString(36).slice(2, 6)}`;
  log(`== ${store} (${profile.name}${isExploratory(options) ? ', exploratory' : ''}), run directory ${runDir}`);
  const generationStarted = performance.now();
  const prepared =
    store === 'sqlite'
      ? await prepareSqlite(profile, runDir, { fresh: options.fresh }, log)
      : await preparePostgres(profile, options.postgresUrl, tag, log);
  log(`data ready in ${((performance.now() - generationStarted) / 1000).toFixed(1)} s`);
  const drop = async () => {
    if (!options.keep) await prepared.drop();
  };
  onInterrupt.add(drop);
  try {
    const database = await databaseCpu(store, prepared);
    const base = { store, options, prepared, runDir, command, database };
    const a = options.serverBin ? resolve(options.serverBin) : null;
    if (options.compare.length === 0) {
      const record = await measureBuild({ ...base, serverBin: a, label: 'a' });
      if (interrupted) return false;
      saveRecord(record, runDir);
      printRecord(record, `${store} (${profile.name})`);
      return record.failures.length === 0;
    }
    const builds = [a, ...options.compare.map((path) => resolve(path))].map((serverBin, i) => ({
      build: buildLabel(i),
      serverBin,
    }));
    const runs: BuildRecord[] = [];
    for (let round = 1; round <= options.rounds && !interrupted; round += 1) {
      for (const { build, serverBin } of builds) {
        if (interrupted) break;
        log(`-- ${store}: build ${build}, round ${round} of ${options.rounds}`);
        const record = await measureBuild({ ...base, serverBin, label: `${build.toLowerCase()}${round}` });
        saveRecord(record, runDir, `-${build}${round}`);
        runs.push({ build, record });
      }
    }
    if (interrupted) return false;
    for (const { build, record } of runs) if (record.failures.length > 0) printRecord(record, `${store} build ${build}`);
    const legend = builds.map(({ build, serverBin }) => `${build} = ${serverBin ?? 'this checkout'}`).join(', ');
    process.stdout.write(`\n${store}: CPU per operation, ${legend}\n${compareTable(runs)}\n\n`);
    return runs.every((r) => r.record.failures.length === 0);
  } finally {
    onInterrupt.delete(drop);
    if (options.keep) log(`kept the database: ${prepared.url}`);
    else await drop().catch((error: unknown) => log(`could not drop the database: ${errorMessage(error)}`));
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(argv, process.env);
    const unknown = (options.only ?? []).filter((name) => !(SCENARIO_NAMES as readonly string[]).includes(name));
    if (unknown.length > 0) {
      throw new OptionsError(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIO_NAMES.join(', ')}`);
    }
  } catch (error) {
    process.stderr.write(`bench: ${errorMessage(error)}\n\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (options.writeDoc) {
    writeFileSync(BENCHMARKS_DOC, benchmarksDocument(RESULTS_DIR, relative(REPO_ROOT, RESULTS_DIR)));
    log(`wrote ${relative(REPO_ROOT, BENCHMARKS_DOC)} from ${relative(REPO_ROOT, RESULTS_DIR)}`);
    return 0;
  }
  const command = `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
  let ok = true;
  for (const store of options.stores) {
    if (store === 'postgres') {
      const missing = await missingPostgres(options, log);
      if (missing === 'fail') ok = false;
      if (missing !== null) continue;
    }
    if (interrupted) break;
    try {
      ok = (await runStore(store, options, command)) && ok;
    } catch (error) {
      log(`${store}: ${errorMessage(error)}`);
      ok = false;
    }
  }
  if (interrupted) return 130;
  log(ok ? 'every scenario answered correctly' : 'FAILED: some requests erred or answered wrongly (see above); the run exits 1');
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
