/**
 * Loaded into the gateway process under test (`node --import <this file>`), never part of the product: samples
 * the server's event-loop delay with `perf_hooks.monitorEventLoopDelay` and answers the benchmark over the
 * process's IPC channel (`reset` before a measured phase, `read` after it), so the delay is measured where it
 * happens, in the server. Without an IPC channel it does nothing.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';

interface ProbeRequest {
  readonly probe: 'reset' | 'read';
  readonly id: number;
}

export interface EventLoopDelay {
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly samples: number;
}

if (typeof process.send === 'function') {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const ms = (ns: number) => Math.round(ns / 1e4) / 100;
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
