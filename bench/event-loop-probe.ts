/**
 * Loaded into the gateway process under test (`node --import <this file>`), never part of the product: samples
 * the server's event-loop delay with `perf_hooks.monitorEventLoopDelay` and answers the benchmark over the
 * process's IPC channel (`reset` before a measured phase, `read` after it), so the delay is measured where it
 * happens, in the server. Without an IPC channel it does nothing.
 *
 * The histogram records the time between two runs of a repeating timer, which is the timer's interval (the
 * resolution) plus how late the loop ran it; on an idle process every sample is about 10 ms. The delay reported is
 * the lateness alone: each figure less the resolution, never below zero (as `@fastify/under-pressure` computes it).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

interface ProbeRequest {
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

if (typeof process.send === 'function') {
  const RESOLUTION_MS = 10;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const ms = (ns: number) => Math.max(0, Math.round(ns / 1e4 - RESOLUTION_MS * 100) / 100);
  process.on('message', (message: ProbeRequest) => {
    if (typeof message !== 'object' || message === null || !('probe' in message)) return;
    if (message.probe === 'reset') histogram.reset();
    const reply: EventLoopDelay = {
      p50: ms(histogram.percentile(50)),
      p99: ms(histogram.percentile(99)),
      max: ms(histogram.max),
      samples: histogram.count,
    };
    process.send?.({ probe: message.probe, id: message.id, delay: reply });
  });
  // The channel must not keep the server alive once it has closed everything else on SIGTERM.
  process.channel?.unref();
}
