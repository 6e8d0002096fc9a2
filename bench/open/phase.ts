/**
 * One open-loop phase: every stream sends on its timetable (open/schedule.ts) for warm-up + measured time, never
 * waiting for answers. A request's latency runs from the instant it was due, not from when it left, so a request
 * held back (by the gateway's stalled event loop, or by this process's) is counted with its delay instead of
 * being left out. The measured window is the operations due in its span; nothing is sent after it, and the phase
 * ends when every answer has come. The hook marks the window's start (the caller reads CPU and resets the
 * gateway's event-loop delay there; it reads both again when the phase returns): so the CPU measured is that of
 * the operations completed after the window opened, which the phase counts.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { LatencyRecorder, round } from '../stats.ts';
import type { OpenClient, OpenAnswer } from './client.ts';
import type { OpenRequest, OpenStream } from './scenario.ts';
import { dueAt, dueCount, inWindow, scheduledCount, streamOffsets } from './schedule.ts';

export interface PhaseStream {
  readonly stream: OpenStream;
  /** Operations per second. */
  readonly rate: number;
}

export interface PhaseTiming {
  readonly warmupMs: number;
  readonly measureMs: number;
}

export interface WindowHooks {
  onWindowStart(): void;
}

export interface StreamOutcome {
  readonly stream: OpenStream;
  readonly rate: number;
  /** Latency from the due instant, per request kind, for operations due in the window. */
  readonly latency: Map<string, LatencyRecorder>;
  /** Operations due in the window. */
  scheduled: number;
  /** Operations (their last request) completed after the window opened: what the CPU measured served. */
  completed: number;
  /** Requests without an answer (socket error, timeout) and answers other than 200, in the whole phase. */
  errors: number;
  unexpected: number;
  readonly statusCounts: Record<string, number>;
  readonly problems: string[];
}

export interface PhaseOutcome {
  readonly streams: StreamOutcome[];
  /** How late this process sent the window's timetabled requests, ms. */
  readonly sendLag: LatencyRecorder;
  /** This process's own event-loop delay over the window (the timer's lateness), ms. */
  readonly generatorLoop: { readonly p99: number; readonly max: number };
  /** This process's CPU from the window's start to the last answer, percent of one core. */
  readonly generatorCpuPercent: number;
  readonly socketsOpened: number;
}

const LOOP_RESOLUTION_MS = 10;
/** Problems kept per stream for the report (every one is counted). */
const PROBLEMS_KEPT = 5;
/** The first operations are due this long after the phase is set up. */
const LEAD_MS = 5;

const lateness = (ns: number) => round(Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS));

export async function runPhase(
  client: OpenClient,
  streams: readonly PhaseStream[],
  timing: PhaseTiming,
  hooks: WindowHooks,
  tag: string,
): Promise<PhaseOutcome> {
  const phaseMs = timing.warmupMs + timing.measureMs;
  const windowFrom = timing.warmupMs;
  const offsets = streamOffsets(streams.map((s) => s.rate));
  const socketsBefore = client.socketsOpened;
  const sendLag = new LatencyRecorder();
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const inflight = new Set<Promise<void>>();
  const t0 = performance.now() + LEAD_MS;

  const states = streams.map((s, k) => {
    const outcome: StreamOutcome = {
      stream: s.stream,
      rate: s.rate,
      latency: new Map(),
      scheduled: 0,
      completed: 0,
      errors: 0,
      unexpected: 0,
      statusCounts: {},
      problems: [],
    };
    const offset = offsets[k] ?? 0;
    return { outcome, offset, next: 0, total: scheduledCount(phaseMs, s.rate, offset) };
  });

  const record = (outcome: StreamOutcome, request: OpenRequest, due: number, answer: OpenAnswer, measured: boolean) => {
    const status = String(answer.status);
    outcome.statusCounts[status] = (outcome.statusCounts[status] ?? 0) + 1;
    if (answer.status !== 200) {
      if (answer.status === 0) outcome.errors += 1;
      else outcome.unexpected += 1;
      if (outcome.problems.length < PROBLEMS_KEPT) {
        outcome.problems.push(`${request.method} ${request.path}: ${answer.error ?? `status ${answer.status}`}`);
      }
    }
    if (!measured) return;
    let recorder = outcome.latency.get(request.kind);
    if (!recorder) {
      recorder = new LatencyRecorder();
      outcome.latency.set(request.kind, recorder);
    }
    recorder.add(answer.endedAt - due);
  };

  const operate = async (state: (typeof states)[number], index: number, due: number, measured: boolean) => {
    const { outcome } = state;
    const operation = state.outcome.stream.operation(index, tag);
    const first = await client.send(operation.first, operation.then !== undefined);
    record(outcome, operation.first, due, first, measured);
    let last = first;
    if (operation.then) {
      if (first.status !== 200 || first.body === null) return;
      const second = operation.then.request(first.body);
      if (second === null) {
        outcome.errors += 1;
        if (outcome.problems.length < PROBLEMS_KEPT) outcome.problems.push(`${operation.first.path}: the answer named no shift`);
        return;
      }
      const secondDue = due + operation.then.afterMs;
      const wait = secondDue - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = await client.send(second, false);
      record(outcome, second, secondDue, last, measured);
    }
    if (last.status === 200 && last.endedAt >= t0 + windowFrom) outcome.completed += 1;
  };

  let windowOpen = false;
  let generatorFrom = { cpu: process.cpuUsage(), at: performance.now() };
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      const elapsed = now - t0;
      if (!windowOpen && elapsed >= windowFrom) {
        windowOpen = true;
        loop.enable();
        generatorFrom = { cpu: process.cpuUsage(), at: performance.now() };
        hooks.onWindowStart();
      }
      let nextDue = Number.POSITIVE_INFINITY;
      for (const state of states) {
        const due = Math.min(state.total, dueCount(elapsed, state.outcome.rate, state.offset));
        while (state.next < due) {
          const index = state.next;
          state.next += 1;
          const dueMs = dueAt(index, state.outcome.rate, state.offset);
          const measured = inWindow(dueMs, windowFrom, phaseMs);
          if (measured) {
            state.outcome.scheduled += 1;
            sendLag.add(performance.now() - (t0 + dueMs));
          }
          const running = operate(state, index, t0 + dueMs, measured).catch((error: unknown) => {
            state.outcome.errors += 1;
            if (state.outcome.problems.length < PROBLEMS_KEPT) state.outcome.problems.push(String(error));
          });
          inflight.add(running);
          void running.finally(() => inflight.delete(running));
        }
        if (state.next < state.total) nextDue = Math.min(nextDue, dueAt(state.next, state.outcome.rate, state.offset));
      }
      if (elapsed >= phaseMs) {
        loop.disable();
        resolve();
        return;
      }
      const nextMark = windowOpen ? phaseMs : windowFrom;
      setTimeout(tick, Math.max(0, t0 + Math.min(nextDue, nextMark) - performance.now()));
    };
    setTimeout(tick, LEAD_MS);
  });
  while (inflight.size > 0) await Promise.all([...inflight]);
  const generatorCpu = process.cpuUsage(generatorFrom.cpu);
  const generatorSeconds = Math.max(0.001, (performance.now() - generatorFrom.at) / 1000);
  return {
    generatorCpuPercent: Math.round((generatorCpu.user + generatorCpu.system) / 1e4 / generatorSeconds),
    streams: states.map((s) => s.outcome),
    sendLag,
    generatorLoop: { p99: lateness(loop.percentile(99)), max: lateness(loop.max) },
    socketsOpened: client.socketsOpened - socketsBefore,
  };
}
