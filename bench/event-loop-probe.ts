/**
 * Loaded into the gateway process under test (`node --import <this file>`), never part of the product: samples
 * the server's event-loop delay with `perf_hooks.monitorEventLoopDelay` and answers the benchmark on the Unix
 * socket named by `WSG_BENCH_PROBE_SOCKET` (`reset` before a measured phase, `read` after it), one JSON object per
 * line each way, so the delay is measured where it happens, in the server. A socket rather than the process's IPC
 * channel, because the gateway may re-execute itself at start (bin/workspace-gateway.js), which closes that
 * channel. Without the variable, or in a worker thread, it does nothing.
 *
 * The histogram records the time between two runs of a repeating timer, which is the timer's interval (the
 * resolution) plus how late the loop ran it; on an idle process every sample is about 10 ms. The delay reported is
 * the lateness alone: each figure less the resolution, never below zero (as `@fastify/under-pressure` computes it).
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { isMainThread } from 'node:worker_threads';

/** The variable naming the socket the probe listens on. */
export const PROBE_SOCKET_VARIABLE = 'WSG_BENCH_PROBE_SOCKET';

export interface ProbeRequest {
  readonly probe: 'reset' | 'read';
  readonly id: number;
}

export interface EventLoopDelay {
  /** Milliseconds by which the loop ran a due timer late (the timer's own interval taken off). */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly samples: number;
}

export interface ProbeReply {
  readonly probe: ProbeRequest['probe'];
  readonly id: number;
  readonly delay: EventLoopDelay;
}

const socketPath = process.env[PROBE_SOCKET_VARIABLE];
if (socketPath !== undefined && isMainThread) {
  const RESOLUTION_MS = 10;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
  const answer = (request: ProbeRequest): ProbeReply => {
    if (request.probe === 'reset') histogram.reset();
    const delay: EventLoopDelay = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
    };
    return { probe: request.probe, id: request.id, delay };
  };
  const server = createServer((socket) => {
    // Neither the socket nor the listener may keep the server alive once it has closed everything else on SIGTERM.
    socket.unref();
    socket.on('error', () => undefined);
    createInterface({ input: socket }).on('line', (line) => {
      socket.write(`${JSON.stringify(answer(JSON.parse(line) as ProbeRequest))}\n`);
    });
  });
  // The gateway may re-execute itself (bin/workspace-gateway.js): the process before that listened here first.
  rmSync(socketPath, { force: true });
  server.on('error', (error) => {
    console.error(`the event-loop probe cannot listen on ${socketPath}: ${error.message}`);
  });
  server.listen(socketPath);
  server.unref();
}
