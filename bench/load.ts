/**
 * One closed-loop load phase: autocannon against the server, with every response's latency recorded at full
 * resolution (autocannon's own histogram counts whole milliseconds), the server's memory sampled meanwhile, and
 * the CPU of the gateway (and the database) over the phase.
 */
import autocannon from 'autocannon';
import { cpuUsed, type CpuUse } from './cpu.ts';
import type { EventLoopDelay } from './event-loop-probe.ts';
import type { ServerProcess } from './server.ts';
import { LatencyRecorder, round } from './stats.ts';

const SAMPLE_INTERVAL_MS = 200;
const REQUEST_TIMEOUT_SECONDS = 30;

export interface LoadSpec {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: autocannon.RequestSpec[];
  /** Stop after this many requests instead of after `durationSeconds`. */
  readonly amount?: number;
}

export interface LoadResult {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number; readonly mean: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCounts: Record<string, number>;
  /** Highest resident set size sampled during the phase, MiB. */
  readonly serverPeakRssMb: number;
  /** CPU the gateway (and the database, when measured) spent over the phase. */
  readonly cpu: CpuUse;
  /** The benchmark process's own CPU (autocannon shares the machine with the server), percent of one core. */
  readonly clientCpuPercent: number;
  /** The server's event-loop delay over the phase (perf_hooks.monitorEventLoopDelay in the server), ms. */
  readonly eventLoopDelayMs?: EventLoopDelay;
}

export async function runLoad(server: ServerProcess, spec: LoadSpec): Promise<LoadResult> {
  const latencies = new LatencyRecorder();
  const statusCounts: Record<string, number> = {};
  await server.eventLoop.reset();
  let peakRss = server.sample().rssMb;
  const before = server.meter.read();
  const clientBefore = process.cpuUsage();
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, server.sample().rssMb);
    } catch {
      // the process is gone; the phase will fail on its own
    }
  }, SAMPLE_INTERVAL_MS);

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: server.baseUrl,
        connections: spec.connections,
        ...(spec.amount === undefined ? { duration: spec.durationSeconds } : { amount: spec.amount }),
        timeout: REQUEST_TIMEOUT_SECONDS,
        requests: spec.requests,
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      latencies.add(responseTimeMs);
      const key = String(statusCode);
      statusCounts[key] = (statusCounts[key] ?? 0) + 1;
    });
  }).finally(() => clearInterval(sampler));

  const cpu = cpuUsed(before, server.meter.read());
  const eventLoopDelayMs = await server.eventLoop.read();
  peakRss = Math.max(peakRss, server.sample().rssMb);
  const clientCpu = process.cpuUsage(clientBefore);
  const summary = latencies.summary();
  const seconds = result.duration > 0 ? result.duration : cpu.wallSeconds;
  return {
    connections: spec.connections,
    durationSeconds: round(seconds),
    requests: summary.count,
    requestsPerSecond: round(summary.count / seconds, 1),
    latencyMs: { p50: summary.p50, p99: summary.p99, max: summary.max, mean: summary.mean },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCounts,
    serverPeakRssMb: round(peakRss, 1),
    cpu,
    clientCpuPercent: round(((clientCpu.user + clientCpu.system) / 1e6 / cpu.wallSeconds) * 100, 0),
    eventLoopDelayMs,
  };
}

/** A LoadResult for requests timed one by one (latencies in ms) outside autocannon. */
export function sequentialResult(
  server: ServerProcess,
  latenciesMs: readonly number[],
  cpu: CpuUse,
  loop?: EventLoopDelay,
): LoadResult {
  const recorder = new LatencyRecorder();
  for (const value of latenciesMs) recorder.add(value);
  const summary = recorder.summary();
  return {
    connections: 1,
    durationSeconds: round(cpu.wallSeconds),
    requests: summary.count,
    requestsPerSecond: round(summary.count / Math.max(cpu.wallSeconds, 0.001), 1),
    latencyMs: { p50: summary.p50, p99: summary.p99, max: summary.max, mean: summary.mean },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCounts: { '200': summary.count },
    serverPeakRssMb: round(server.sample().rssMb, 1),
    cpu,
    clientCpuPercent: 0,
    ...(loop ? { eventLoopDelayMs: loop } : {}),
  };
}
