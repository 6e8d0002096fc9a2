/**
 * One measured load phase: autocannon against the server, with every response's latency recorded at full
 * resolution (autocannon's own histogram counts whole milliseconds) and the server process sampled meanwhile.
 */
import autocannon from 'autocannon';
import type { EventLoopDelay } from './event-loop-probe.ts';
import type { ServerProcess } from './server.ts';

const SAMPLE_INTERVAL_MS = 200;
const REQUEST_TIMEOUT_SECONDS = 30;

export interface LoadSpec {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: autocannon.RequestSpec[];
  /** Measure the server's event-loop delay over this phase (off for phases run side by side). Default true. */
  readonly eventLoop?: boolean;
}

export interface LoadResult {
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p97_5: number; readonly p99: number; readonly max: number; readonly mean: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly statusCounts: Record<string, number>;
  /** Highest resident set size sampled during the phase, MiB. */
  readonly serverPeakRssMb: number;
  /** Server CPU time over wall time, percent of one core. */
  readonly serverCpuPercent: number;
  /** Server CPU time per response, ms: the work a request costs, apart from queueing. */
  readonly serverCpuMsPerRequest: number;
  /** The benchmark process's own CPU (autocannon shares the machine with the server), percent of one core. */
  readonly clientCpuPercent: number;
  /** The server's event-loop delay over the phase (perf_hooks.monitorEventLoopDelay in the server), ms. */
  readonly eventLoopDelayMs?: EventLoopDelay;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

export async function runLoad(server: ServerProcess, spec: LoadSpec): Promise<LoadResult> {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const statusCounts: Record<string, number> = {};
  const measureLoop = spec.eventLoop ?? true;
  if (measureLoop) await server.eventLoop.reset();
  let peakRss = server.sample().rssMb;
  const before = server.sample();
  const clientBefore = process.cpuUsage();
  const wallStart = performance.now();
  const sampler = setInterval(() => {
    try {
      peakRss = Math.max(peakRss, server.sample().rssMb);
    } catch {
      // the process is gone; the phase will fail on its own
    }
  }, SAMPLE_INTERVAL_MS);

  let instance: autocannon.Instance | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        url: server.baseUrl,
        connections: spec.connections,
        duration: spec.durationSeconds,
        timeout: REQUEST_TIMEOUT_SECONDS,
        requests: spec.requests,
      },
      (error, value) => (error ? reject(error) : resolve(value)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count] = responseTimeMs;
      count += 1;
      const key = String(statusCode);
      statusCounts[key] = (statusCounts[key] ?? 0) + 1;
    });
  }).finally(() => clearInterval(sampler));
  void instance;

  const wallSeconds = (performance.now() - wallStart) / 1000;
  const eventLoopDelayMs = measureLoop ? await server.eventLoop.read() : undefined;
  const after = server.sample();
  peakRss = Math.max(peakRss, after.rssMb);
  const clientCpu = process.cpuUsage(clientBefore);
  const sorted = latencies.slice(0, count).sort();
  let sum = 0;
  for (const value of sorted) sum += value;
  const seconds = result.duration > 0 ? result.duration : wallSeconds;
  return {
    connections: spec.connections,
    durationSeconds: round(seconds),
    requests: count,
    requestsPerSecond: round(count / seconds, 1),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p97_5: round(percentile(sorted, 97.5)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1] ?? 0),
      mean: round(count > 0 ? sum / count : 0),
    },
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCounts,
    serverPeakRssMb: round(peakRss, 1),
    serverCpuPercent: round(((after.cpuSeconds - before.cpuSeconds) / wallSeconds) * 100, 0),
    serverCpuMsPerRequest: round(count > 0 ? ((after.cpuSeconds - before.cpuSeconds) * 1000) / count : 0, 3),
    clientCpuPercent: round(((clientCpu.user + clientCpu.system) / 1e6 / wallSeconds) * 100, 0),
    ...(eventLoopDelayMs ? { eventLoopDelayMs } : {}),
  };
}

/** A LoadResult for requests timed one by one (latencies in ms) outside autocannon. */
export function sequentialResult(server: ServerProcess, latenciesMs: readonly number[], wallSeconds: number, loop?: EventLoopDelay): LoadResult {
  const sorted = Float64Array.from(latenciesMs).sort();
  const count = sorted.length;
  let sum = 0;
  for (const value of sorted) sum += value;
  const sample = server.sample();
  return {
    connections: 1,
    durationSeconds: round(wallSeconds),
    requests: count,
    requestsPerSecond: round(count / Math.max(wallSeconds, 0.001), 1),
    latencyMs: {
      p50: round(percentile(sorted, 50)),
      p97_5: round(percentile(sorted, 97.5)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[count - 1] ?? 0),
      mean: round(count > 0 ? sum / count : 0),
    },
    errors: 0,
    timeouts: 0,
    non2xx: 0,
    statusCounts: { '200': count },
    serverPeakRssMb: round(sample.rssMb, 1),
    serverCpuPercent: 0,
    serverCpuMsPerRequest: 0,
    clientCpuPercent: 0,
    ...(loop ? { eventLoopDelayMs: loop } : {}),
  };
}
