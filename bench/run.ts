/**
 * `npm run bench`: generate data, start the server as a separate process, check and measure every scenario,
 * report. See docs/BENCHMARKS.md (written by report.ts) for what is measured and how to read it.
 */
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pinLoadGenerator } from './affinity.ts';
import { ResponseContract } from './contract.ts';
import { postgresAnswers, prepareSqlite, preparePostgres, type PreparedDatabase } from './database.ts';
import { requestJson } from './http.ts';
import { runLoad, sequentialResult, type LoadResult } from './load.ts';
import { currentLoad, describeMachine } from './machine.ts';
import { OptionsError, parseOptions, USAGE, type BenchOptions } from './options.ts';
import { BENCHMARKS_DOC, REPO_ROOT, RESULTS_DIR } from './paths.ts';
import { GENERATOR_VERSION, PROFILES } from './profiles.ts';
import { summarizeProfileFile } from './profile-summary.ts';
import { benchmarksDocument } from './benchmarks-doc.ts';
import { consoleTable, RECORD_VERSION, runMarkdown, type RunRecord, type ScenarioRecord } from './report.ts';
import { buildScenarios, SCENARIO_NAMES, type Scenario } from './scenarios.ts';
import { startServer, type ServerProcess } from './server.ts';
import {
  evaluateTargets,
  LATENCY_CONNECTIONS,
  LATENCY_SCENARIOS,
  latencyKey,
  type StoreName,
  type TargetResult,
} from './targets.ts';

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

interface StoreOutcome {
  readonly record: RunRecord | null;
  readonly ok: boolean;
}

function report(label: string, result: LoadResult, failures: string[]): void {
  const loop = result.eventLoopDelayMs;
  log(
    `  ${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ` +
      (loop ? `event loop p99 ${loop.p99} ms (max ${loop.max}), ` : '') +
      `${result.errors} errors, ${result.non2xx} non-2xx, RSS ${result.serverPeakRssMb} MB, server CPU ${result.serverCpuPercent}%`,
  );
  if (result.errors > 0 || result.non2xx > 0 || result.requests === 0) {
    failures.push(
      `${label}: ${result.requests} responses, ${result.errors} errors (${result.timeouts} timeouts), ` +
        `${result.non2xx} non-2xx, statuses ${JSON.stringify(result.statusCounts)}`,
    );
  }
}

/** Cold week-leaderboard reads (each right after a stop) the mixed scenario times, by profile. */
const COLD_READS = { quick: 20, full: 200 } as const;

/**
 * The mixed scenario: the week leaderboard read right after a stop (cold), each stream alone, then all streams at
 * once for the same duration. The event-loop delay of the mix is the one of the phase the streams shared.
 */
async function measureMixed(
  server: ServerProcess,
  scenario: Scenario,
  profile: (typeof PROFILES)[keyof typeof PROFILES],
  durationSeconds: number,
  failures: string[],
): Promise<ScenarioRecord[]> {
  const mixed = scenario.mixed;
  if (!mixed) return [];
  const records: ScenarioRecord[] = [];
  const push = (name: string, title: string, phase: NonNullable<ScenarioRecord['phase']>, result: LoadResult) => {
    records.push({ name, title, phase, ...result, ratioToBaseline: null });
    report(name, result, failures);
  };

  await server.eventLoop.reset();
  const latencies: number[] = [];
  const coldStarted = performance.now();
  for (let i = 0; i < COLD_READS[profile.name]; i += 1) latencies.push(await mixed.coldRead(i + 1));
  const coldLoop = await server.eventLoop.read();
  push(
    'mixed/cold-leaderboard',
    'GET /v1/activity/leaderboard?period=week right after a stop (cold), one at a time',
    'cold',
    sequentialResult(server, latencies, (performance.now() - coldStarted) / 1000, coldLoop),
  );

  for (const stream of mixed.streams) {
    const result = await runLoad(server, { connections: stream.connections, durationSeconds, requests: stream.requests() });
    push(`mixed/${stream.name}/alone`, `${stream.title}, alone`, 'alone', result);
  }
  if (profile.warmupSeconds > 0) {
    await Promise.all(
      mixed.streams.map((stream) =>
        runLoad(server, { connections: stream.connections, durationSeconds: profile.warmupSeconds, requests: stream.requests(), eventLoop: false }),
      ),
    );
  }
  await server.eventLoop.reset();
  const together = await Promise.all(
    mixed.streams.map((stream) =>
      runLoad(server, { connections: stream.connections, durationSeconds, requests: stream.requests(), eventLoop: false }),
    ),
  );
  const mixLoop = await server.eventLoop.read();
  mixed.streams.forEach((stream, i) => {
    const result = together[i];
    if (result) push(`mixed/${stream.name}/mixed`, `${stream.title}, in the mix`, 'mixed', { ...result, eventLoopDelayMs: mixLoop });
  });
  return records;
}

async function measureScenarios(
  server: ServerProcess,
  prepared: PreparedDatabase,
  options: BenchOptions,
  runTag: string,
  failures: string[],
  scenarioTargets: TargetResult[],
): Promise<ScenarioRecord[]> {
  const profile = PROFILES[options.profile];
  const connections = options.connections ?? profile.connections;
  const durationSeconds = options.durationSeconds ?? profile.durationSeconds;
  const openapi = await requestJson(server.baseUrl, { path: '/openapi.json' });
  if (openapi.status !== 200) throw new Error(`GET /openapi.json answered ${openapi.status}`);
  const contract = new ResponseContract(openapi.body as ConstructorParameters<typeof ResponseContract>[0]);
  const all = buildScenarios({
    baseUrl: server.baseUrl,
    databaseUrl: prepared.url,
    plan: prepared.plan,
    profile,
    contract,
    runTag,
    log,
  });
  const scenarios = all.filter((s) =>
    s.name === 'baseline' ? options.baseline : options.only === null || options.only.includes(s.name),
  );

  const records: ScenarioRecord[] = [];
  let baselineRps: number | null = null;
  for (const scenario of scenarios) {
    if (interrupted) break;
    log(`${scenario.name}: ${scenario.title}`);
    try {
      await scenario.prepare?.();
      await scenario.check();
      if (scenario.mixed) {
        records.push(...(await measureMixed(server, scenario, profile, durationSeconds, failures)));
        continue;
      }
      if (profile.warmupSeconds > 0) {
        await runLoad(server, { connections, durationSeconds: profile.warmupSeconds, requests: scenario.requests() });
      }
      const result: LoadResult = await runLoad(server, { connections, durationSeconds, requests: scenario.requests() });
      if (scenario.name === 'baseline') baselineRps = result.requestsPerSecond;
      const ratio = scenario.name === 'baseline' || baselineRps === null ? null : result.requestsPerSecond / baselineRps;
      const roundedRatio = ratio === null ? null : Math.round(ratio * 1000) / 1000;
      records.push({ name: scenario.name, title: scenario.title, phase: 'throughput', ...result, ratioToBaseline: roundedRatio });
      report(scenario.name, result, failures);
      if (LATENCY_SCENARIOS.includes(scenario.name) && connections > LATENCY_CONNECTIONS) {
        const latency = await runLoad(server, {
          connections: LATENCY_CONNECTIONS,
          durationSeconds: Math.max(1, durationSeconds / 2),
          requests: scenario.requests(),
        });
        records.push({ name: scenario.name, title: `${scenario.title}, latency`, phase: 'latency', ...latency, ratioToBaseline: null });
        report(`${scenario.name} at ${LATENCY_CONNECTIONS} connections`, latency, failures);
      }
      if (scenario.targets) scenarioTargets.push(...scenario.targets());
    } catch (error) {
      const message = errorMessage(error);
      log(`  FAILED: ${message}`);
      failures.push(message.startsWith(scenario.name) ? message : `${scenario.name}: ${message}`);
    }
  }
  return records;
}

async function runStore(store: StoreName, options: BenchOptions, command: string): Promise<StoreOutcome> {
  const profile = PROFILES[options.profile];
  const startedAt = new Date();
  const loadAtStart = currentLoad();
  const runTag = `${store}-${fileStamp(startedAt)}-${Math.random().toString(36).slice(2, 6)}`;
  const runDir = mkdtempSync(join(tmpdir(), `wsg-bench-${store}-`));
  const exploratory =
    options.only !== null ||
    !options.baseline ||
    options.durationSeconds !== null ||
    options.connections !== null ||
    options.serverBin !== null ||
    !options.pin;
  const writesDocs = profile.name === 'full' && !exploratory;
  log(`== ${store} (${profile.name}${exploratory ? ', exploratory' : ''}), run directory ${runDir}`);

  const failures: string[] = [];
  const generationStarted = performance.now();
  const prepared =
    store === 'sqlite'
      ? await prepareSqlite(profile, runDir, { fresh: options.fresh }, log)
      : await preparePostgres(profile, options.postgresUrl, runTag, log);
  log(`data ready in ${((performance.now() - generationStarted) / 1000).toFixed(1)} s`);

  let scenarios: ScenarioRecord[] = [];
  const scenarioTargets: TargetResult[] = [];
  let peakRssMb = 0;
  let exitCode: number | null = null;
  let pinnedTo: string | null = null;
  const profileDir = options.cpuProfile ? join(runDir, 'profiles') : undefined;
  let server: ServerProcess | undefined;
  const undo = async () => {
    await server?.stop();
    if (!options.keep) await prepared.drop();
  };
  onInterrupt.add(undo);
  try {
    server = await startServer({
      databaseUrl: prepared.url,
      logPath: join(runDir, 'server.log'),
      ...(profileDir ? { profileDir } : {}),
      ...(options.serverBin ? { serverBin: resolve(options.serverBin) } : {}),
    });
    log(`server pid ${server.pid} at ${server.baseUrl}`);
    // Pinned after the server started, which keeps every CPU (see affinity.ts).
    const pin = options.pin ? pinLoadGenerator() : null;
    if (pin && 'cpu' in pin) {
      pinnedTo = pin.cpu;
      log(`load generator held on CPU ${pin.cpu}; the server and the database run on any CPU`);
    } else if (pin) {
      log(`load generator not pinned (${pin.reason})`);
    }
    try {
      scenarios = await measureScenarios(server, prepared, options, runTag, failures, scenarioTargets);
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
    if (options.keep) log(`kept the database: ${prepared.url}`);
    else await prepared.drop().catch((error: unknown) => log(`could not drop the database: ${errorMessage(error)}`));
  }

  if (interrupted) return { record: null, ok: false };
  const results = new Map(scenarios.map((s) => [s.phase === 'latency' ? latencyKey(s.name) : s.name, s]));
  const mixedScenario = options.only === null || options.only.includes('mixed');
  const plan = prepared.plan;
  const record: RunRecord = {
    recordVersion: RECORD_VERSION,
    store,
    mode: profile.name,
    exploratory,
    command,
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
    scenarios,
    server: { peakRssMb, exitCode },
    targets: [...evaluateTargets(store, results, peakRssMb, { mixed: mixedScenario }), ...scenarioTargets],
    failures,
  };

  const name = `${store}-${fileStamp(startedAt)}.json`;
  if (writesDocs) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const path = join(RESULTS_DIR, name);
    writeFileSync(path, `${JSON.stringify(record, null, 2)}\n`);
    writeFileSync(BENCHMARKS_DOC, benchmarksDocument(RESULTS_DIR, relative(REPO_ROOT, RESULTS_DIR)));
    log(`wrote ${relative(REPO_ROOT, path)} and ${relative(REPO_ROOT, BENCHMARKS_DOC)}`);
  } else {
    writeFileSync(join(runDir, name), `${JSON.stringify(record, null, 2)}\n`);
    writeFileSync(join(runDir, 'report.md'), `${runMarkdown(record, null)}\n`);
    log(`wrote ${join(runDir, name)} and report.md (${profile.name === 'quick' ? 'quick' : 'exploratory'} runs leave docs/ alone)`);
  }
  if (profileDir) {
    for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
      const summary = summarizeProfileFile(join(profileDir, file));
      writeFileSync(join(profileDir, `${file}.txt`), `${summary}\n`);
      log(`CPU profile ${join(profileDir, file)}:\n${summary}`);
    }
  }
  process.stdout.write(`\n${store} (${profile.name}):\n${consoleTable(record)}\n\n`);
  if (failures.length > 0) {
    process.stdout.write(`${store}: ${failures.length} failure(s):\n${failures.map((f) => `  - ${f}`).join('\n')}\n\n`);
  }
  return { record, ok: failures.length === 0 };
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
  const command = `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
  let ok = true;
  for (const store of options.stores) {
    if (store === 'postgres' && !(await postgresAnswers(options.postgresUrl))) {
      const where = options.postgresUrl.replace(/\/\/[^@/]*@/, '//…@');
      if (options.storesDefaulted && process.env.CI !== 'true') {
        log(`WARNING: PostgreSQL does not answer at ${where}; the PostgreSQL run is skipped`);
        continue;
      }
      log(`PostgreSQL does not answer at ${where}`);
      ok = false;
      continue;
    }
    if (interrupted) break;
    try {
      const outcome = await runStore(store, options, command);
      ok &&= outcome.ok;
    } catch (error) {
      log(`${store}: ${errorMessage(error)}`);
      ok = false;
    }
  }
  if (interrupted) return 130;
  log(ok ? 'every scenario answered correctly' : 'FAILED: see above');
  return ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
