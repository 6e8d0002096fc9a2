/**
 * Runs the open-loop scenario: the idle cost first (no requests, the background jobs running), then at each level
 * every stream alone and then all of them at once ("mix"), each phase with its latencies from the due instant,
 * the gateway's event-loop delay, this process's, the CPU of the gateway and the database, and for a stream alone
 * its cost per operation.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuUsed, operationCost, type CpuMeter, type CpuReading, type CpuUse, type OperationCost } from '../cpu.ts';
import type { EventLoopDelay } from '../event-loop-probe.ts';
import type { OpenTiming } from '../profiles.ts';
import type { ServerProcess } from '../server.ts';
import { LatencyRecorder, round, summarize, type LatencySummary } from '../stats.ts';
import { openClient } from './client.ts';
import { runPhase, type PhaseOutcome, type PhaseStream, type StreamOutcome } from './phase.ts';
import { CYCLE_HOLD_MS, MIX_STREAMS, OPEN_LEVELS, type LevelName, type OpenScenario, type StreamName } from './scenario.ts';

export interface OpenIdleRecord {
  readonly seconds: number;
  /** CPU ms per second of wall time with no requests. */
  readonly gatewayMsPerSecond: number;
  readonly databaseMsPerSecond: number | null;
  readonly serverLoop: EventLoopDelay;
}

/** Latency of one request kind (or of the whole stream, kind null), ms from the due instant. */
export interface OpenLatencyRow extends LatencySummary {
  readonly kind: string | null;
}

export interface OpenStreamRecord {
  readonly name: StreamName;
  /** Operations per second on the timetable. */
  readonly rate: number;
  readonly scheduled: number;
  readonly completed: number;
  readonly errors: number;
  readonly unexpected: number;
  readonly statusCounts: Record<string, number>;
  readonly problems: string[];
  /** The whole stream first, then each kind when it has several (start and stop; the three reads). */
  readonly latency: OpenLatencyRow[];
}

export interface OpenPhaseRecord {
  readonly level: LevelName;
  /** A stream alone, or `mix`: every stream at once. */
  readonly phase: StreamName | 'mix';
  readonly measureSeconds: number;
  readonly streams: OpenStreamRecord[];
  readonly cpu: CpuUse;
  /**
   * CPU from the window's start until the last answer (nothing is sent after the window), and for a stream alone
   * that CPU per operation completed in that time. The mix has no cost (its CPU is shared by the streams).
   */
  readonly cost: OperationCost | null;
  /** The gateway's event-loop delay over the same time. */
  readonly serverLoop: EventLoopDelay;
  readonly generatorLoop: { readonly p99: number; readonly max: number };
  /** The load generator's CPU over the same time, percent of one core (it is held on one). */
  readonly generatorCpuPercent: number;
  readonly sendLagMs: { readonly p50: number; readonly p99: number; readonly max: number };
  readonly socketsOpened: number;
  readonly serverPeakRssMb: number;
}

export interface OpenRecord {
  readonly timing: OpenTiming;
  readonly cycleHoldMs: number;
  readonly idle: OpenIdleRecord;
  readonly phases: OpenPhaseRecord[];
}

export interface OpenRunContext {
  readonly server: ServerProcess;
  readonly meter: CpuMeter;
  readonly scenario: OpenScenario;
  readonly timing: OpenTiming;
  /** Only these phases (`level:phase`), or all of them when null. */
  readonly phases: readonly string[] | null;
  readonly runTag: string;
  readonly log: (message: string) => void;
}

function streamRecord(outcome: StreamOutcome): OpenStreamRecord {
  // By name, so a report lists a stream's kinds in the same order every phase.
  const kinds = [...outcome.latency.entries()].sort(([a], [b]) => a.localeCompare(b));
  const all = new LatencyRecorder();
  for (const [, recorder] of kinds) for (const value of recorder.sorted()) all.add(value);
  return {
    name: outcome.stream.name,
    rate: outcome.rate,
    scheduled: outcome.scheduled,
    completed: outcome.completed,
    errors: outcome.errors,
    unexpected: outcome.unexpected,
    statusCounts: outcome.statusCounts,
    problems: outcome.problems,
    latency: [
      { kind: null, ...all.summary() },
      ...(kinds.length > 1 ? kinds.map(([kind, recorder]) => ({ kind, ...recorder.summary() })) : []),
    ],
  };
}

function phaseSummary(record: OpenPhaseRecord): string {
  const streams = record.streams
    .map((s) => {
      const all = s.latency[0];
      const bad = s.errors + s.unexpected > 0 ? ` ${s.errors + s.unexpected} ERRORS` : '';
      return `${s.name} ${s.rate}/s p50 ${all?.p50 ?? '-'} p99 ${all?.p99 ?? '-'} p99.9 ${all?.p99_9 ?? '-'} ms${bad}`;
    })
    .join('; ');
  const loop = `gateway loop p99 ${record.serverLoop.p99} max ${record.serverLoop.max} ms`;
  const cost = record.cost ? `, ${record.cost.totalUs} us/${record.cost.unit}` : '';
  const db = record.cpu.databaseMs === null ? '' : ` + database ${Math.round(record.cpu.databaseMs / record.cpu.wallSeconds / 10)}%`;
  return (
    `${streams}; ${loop}; CPU gateway ${Math.round(record.cpu.gatewayMs / record.cpu.wallSeconds / 10)}%${db}${cost}; ` +
    `generator CPU ${record.generatorCpuPercent}%, loop p99 ${record.generatorLoop.p99} ms, send lag p99 ${record.sendLagMs.p99} ms`
  );
}

export async function measureOpen(ctx: OpenRunContext): Promise<OpenRecord> {
  const { server, meter, timing, log } = ctx;
  const client = openClient(server.baseUrl);
  try {
    await sleep(timing.settleSeconds * 1000);
    await server.eventLoop.reset();
    const idleFrom = meter.read();
    await sleep(timing.idleSeconds * 1000);
    const idleUse = cpuUsed(idleFrom, meter.read());
    const idle: OpenIdleRecord = {
      seconds: idleUse.wallSeconds,
      gatewayMsPerSecond: round(idleUse.gatewayMs / idleUse.wallSeconds, 1),
      databaseMsPerSecond: idleUse.databaseMs === null ? null : round(idleUse.databaseMs / idleUse.wallSeconds, 1),
      serverLoop: await server.eventLoop.read(),
    };
    log(
      `  idle: gateway ${idle.gatewayMsPerSecond} CPU ms/s` +
        (idle.databaseMsPerSecond === null ? '' : `, database ${idle.databaseMsPerSecond} CPU ms/s`) +
        `, gateway loop p99 ${idle.serverLoop.p99} ms (max ${idle.serverLoop.max})`,
    );

    const phases: OpenPhaseRecord[] = [];
    let phaseNumber = 0;
    for (const level of OPEN_LEVELS) {
      const plans: Array<{ phase: StreamName | 'mix'; streams: PhaseStream[] }> = [
        ...ctx.scenario.streams.map((stream) => ({ phase: stream.name, streams: [{ stream, rate: level.rates[stream.name] }] })),
        {
          phase: 'mix' as const,
          streams: ctx.scenario.streams.filter((stream) => MIX_STREAMS.includes(stream.name)).map((stream) => ({ stream, rate: level.rates[stream.name] })),
        },
      ];
      for (const plan of plans) {
        phaseNumber += 1;
        if (ctx.phases && !ctx.phases.includes(`${level.name}:${plan.phase}`)) continue;
        let from: CpuReading | undefined;
        let loopReset: Promise<void> | undefined;
        let peakRss = 0;
        const sampler = setInterval(() => {
          try {
            peakRss = Math.max(peakRss, server.sample().rssMb);
          } catch {
            // the process is gone; the phase fails on its own
          }
        }, 250);
        let outcome: PhaseOutcome;
        try {
          outcome = await runPhase(
            client,
            plan.streams,
            { warmupMs: timing.warmupSeconds * 1000, measureMs: timing.phaseSeconds * 1000 },
            {
              onWindowStart() {
                loopReset = server.eventLoop.reset();
                from = meter.read();
              },
            },
            `${ctx.runTag}-open${phaseNumber}`,
          );
        } finally {
          clearInterval(sampler);
        }
        if (!from || !loopReset) throw new Error('open: the measured window did not run');
        const cpu = cpuUsed(from, meter.read());
        await loopReset;
        const serverLoop = await server.eventLoop.read();
        const streams = outcome.streams.map(streamRecord);
        const alone = plan.streams.length === 1 ? plan.streams[0] : undefined;
        const completed = outcome.streams[0]?.completed ?? 0;
        const lag = summarize(outcome.sendLag.sorted());
        const record: OpenPhaseRecord = {
          level: level.name,
          phase: plan.phase,
          measureSeconds: timing.phaseSeconds,
          streams,
          cpu,
          cost: alone ? operationCost(cpu, completed, alone.stream.unit, alone.stream.shifts?.()) : null,
          serverLoop,
          generatorLoop: outcome.generatorLoop,
          generatorCpuPercent: outcome.generatorCpuPercent,
          sendLagMs: { p50: lag.p50, p99: lag.p99, max: lag.max },
          socketsOpened: outcome.socketsOpened,
          serverPeakRssMb: round(Math.max(peakRss, server.sample().rssMb), 1),
        };
        phases.push(record);
        log(`  ${level.name} ${plan.phase}: ${phaseSummary(record)}`);
      }
    }
    return { timing, cycleHoldMs: CYCLE_HOLD_MS, idle, phases };
  } finally {
    client.close();
  }
}

/** Problems of an open run: every request that got no answer or another status than 200. */
export function openFailures(record: OpenRecord): string[] {
  return record.phases.flatMap((phase) =>
    phase.streams
      .filter((s) => s.errors + s.unexpected > 0 || s.scheduled === 0)
      .map(
        (s) =>
          `open ${phase.level} ${phase.phase} ${s.name}: ${s.errors} without an answer, ${s.unexpected} not 200 ` +
          `(statuses ${JSON.stringify(s.statusCounts)}; ${s.scheduled} due in the window)` +
          (s.problems.length > 0 ? `: ${s.problems.join('; ')}` : ''),
      ),
  );
}
