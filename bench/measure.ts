/**
 * Measures the scenarios of one run on a started server: each is prepared, checked, then measured (closed loop,
 * one at a time, or open loop), with the CPU it cost per operation.
 */
import { ResponseContract } from './contract.ts';
import { cpuUsed, operationCost } from './cpu.ts';
import type { PreparedDatabase } from './database.ts';
import { requestJson } from './http.ts';
import { runLoad, sequentialResult, type LoadResult } from './load.ts';
import { measureOpen, openFailures, type OpenRecord } from './open/measure.ts';
import type { BenchOptions } from './options.ts';
import { PROFILES, type OpenTiming } from './profiles.ts';
import type { ScenarioRecord } from './report.ts';
import { buildScenarios, type Scenario } from './scenarios.ts';
import type { ServerProcess } from './server.ts';
import { LATENCY_CONNECTIONS, LATENCY_SCENARIOS, type StoreName, type TargetResult } from './targets.ts';

export interface Measured {
  readonly scenarios: ScenarioRecord[];
  readonly open: OpenRecord | null;
  /** Targets the scenarios judged themselves (webhooks). */
  readonly targets: TargetResult[];
}

export interface MeasureContext {
  readonly store: StoreName;
  readonly server: ServerProcess;
  readonly prepared: PreparedDatabase;
  readonly options: BenchOptions;
  readonly runTag: string;
  readonly failures: string[];
  readonly log: (message: string) => void;
  readonly interrupted: () => boolean;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Logs a phase, and records a failure when any request erred or answered non-2xx. */
function report(ctx: MeasureContext, label: string, result: LoadResult, record: ScenarioRecord): void {
  const loop = result.eventLoopDelayMs;
  const cost = record.cost;
  const database = cost?.databaseUs == null ? '' : ` (database ${cost.databaseUs})`;
  ctx.log(
    `  ${label}: ${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ` +
      (cost ? `${cost.totalUs} µs CPU/${cost.unit}${database}, ` : '') +
      (loop ? `event loop p99 ${loop.p99} ms (max ${loop.max}), ` : '') +
      `${result.errors} errors, ${result.non2xx} non-2xx, RSS ${result.serverPeakRssMb} MB`,
  );
  if (result.errors > 0 || result.non2xx > 0 || result.requests === 0) {
    ctx.failures.push(
      `${label}: ${result.requests} responses, ${result.errors} errors (${result.timeouts} timeouts), ` +
        `${result.non2xx} non-2xx, statuses ${JSON.stringify(result.statusCounts)}`,
    );
  }
}

function scenarioRecord(scenario: Scenario, phase: ScenarioRecord['phase'], title: string, result: LoadResult): ScenarioRecord {
  const unit = scenario.operation ?? { unit: 'request', requests: 1 };
  const operations = Math.floor(result.requests / unit.requests);
  return {
    name: scenario.name,
    title,
    phase,
    ...result,
    cost: operationCost(result.cpu, operations, unit.unit, unit.shifts?.()),
  };
}

async function measureSequential(ctx: MeasureContext, scenario: Scenario): Promise<ScenarioRecord> {
  const sequential = scenario.sequential;
  if (!sequential) throw new Error(`${scenario.name} has no sequential requests`);
  await ctx.server.eventLoop.reset();
  const from = ctx.server.meter.read();
  const latencies: number[] = [];
  for (let i = 0; i < sequential.count; i += 1) latencies.push(await sequential.one(i));
  const cpu = cpuUsed(from, ctx.server.meter.read());
  const result = sequentialResult(ctx.server, latencies, cpu, await ctx.server.eventLoop.read());
  const record = scenarioRecord(scenario, 'cold', scenario.title, result);
  report(ctx, scenario.name, result, record);
  return record;
}

/** The open scenario's timing: the profile's, with --duration as the measured seconds of each phase. */
function openTiming(options: BenchOptions): OpenTiming {
  const timing = PROFILES[options.profile].open;
  return options.durationSeconds === null ? timing : { ...timing, phaseSeconds: options.durationSeconds };
}

export async function measureScenarios(ctx: MeasureContext): Promise<Measured> {
  const { server, prepared, options, runTag, failures, log } = ctx;
  const profile = PROFILES[options.profile];
  const connections = options.connections ?? profile.connections;
  const durationSeconds = options.durationSeconds ?? profile.durationSeconds;
  const openapi = await requestJson(server.baseUrl, { path: '/openapi.json' });
  if (openapi.status !== 200) throw new Error(`GET /openapi.json answered ${openapi.status}`);
  const contract = new ResponseContract(openapi.body as ConstructorParameters<typeof ResponseContract>[0]);
  const all = buildScenarios({
    store: ctx.store,
    baseUrl: server.baseUrl,
    databaseUrl: prepared.url,
    meter: server.meter,
    receiverCloses: options.receiverCloses,
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
  const targets: TargetResult[] = [];
  let open: OpenRecord | null = null;
  for (const scenario of scenarios) {
    if (ctx.interrupted()) break;
    log(`${scenario.name}: ${scenario.title}`);
    try {
      await scenario.prepare?.();
      await scenario.check();
      if (scenario.sequential) {
        records.push(await measureSequential(ctx, scenario));
      } else if (scenario.open) {
        const started = performance.now();
        open = await measureOpen({ server, meter: server.meter, scenario: scenario.open, timing: openTiming(options), phases: options.phases, runTag, log });
        log(`  open: measured in ${((performance.now() - started) / 1000).toFixed(0)} s`);
        failures.push(...openFailures(open));
      } else {
        if (profile.warmupSeconds > 0) {
          const amount = scenario.amount?.(true);
          await runLoad(server, { connections, durationSeconds: profile.warmupSeconds, requests: scenario.requests(), ...(amount ? { amount } : {}) });
        }
        const amount = scenario.amount?.(false);
        const result = await runLoad(server, { connections, durationSeconds, requests: scenario.requests(), ...(amount ? { amount } : {}) });
        const record = scenarioRecord(scenario, 'throughput', scenario.title, result);
        records.push(record);
        report(ctx, scenario.name, result, record);
        if (LATENCY_SCENARIOS.includes(scenario.name) && connections > LATENCY_CONNECTIONS) {
          const latency = await runLoad(server, {
            connections: LATENCY_CONNECTIONS,
            durationSeconds: Math.max(1, durationSeconds / 2),
            requests: scenario.requests(),
          });
          const latencyRecord = scenarioRecord(scenario, 'latency', `${scenario.title}, latency`, latency);
          records.push(latencyRecord);
          report(ctx, `${scenario.name} at ${LATENCY_CONNECTIONS} connections`, latency, latencyRecord);
        }
      }
      if (scenario.targets) targets.push(...scenario.targets(records));
    } catch (error) {
      const message = errorMessage(error);
      log(`  FAILED: ${message}`);
      failures.push(message.startsWith(scenario.name) ? message : `${scenario.name}: ${message}`);
    } finally {
      await scenario.cleanup?.().catch((error: unknown) => failures.push(`${scenario.name} cleanup: ${errorMessage(error)}`));
    }
  }
  return { scenarios: records, open, targets };
}
