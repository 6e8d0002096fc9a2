/**
 * The performance targets: recorded and reported with pass/fail, never failing a run. One source for the code
 * and for the targets table of docs/BENCHMARKS.md (benchmarks-doc.ts reads TARGET_ROWS).
 */
import type { OperationCost } from './cpu.ts';
import type { OpenPhaseRecord, OpenRecord } from './open/measure.ts';
import { OPEN_LEVELS, type OpenLevel } from './open/scenario.ts';
import type { ScenarioRecord } from './report.ts';

export type StoreName = 'sqlite' | 'postgres';

export interface TargetResult {
  readonly target: string;
  readonly measured: string;
  /** null when what it judges was not run. */
  readonly pass: boolean | null;
}

type PerStore = Readonly<Record<StoreName, number>>;
const both = (value: number): PerStore => ({ sqlite: value, postgres: value });

/**
 * Read scenarios with a p50 target are measured twice: at the run's 32 connections (saturated: p50 is then
 * mostly queueing) and at this many connections, where p50 is mostly the request's own time.
 */
export const LATENCY_CONNECTIONS = 4;
export const LATENCY_SCENARIOS: readonly string[] = [
  'summary',
  'staff-month',
  'leaderboard-week',
  'leaderboard-week-deep',
  'queue',
  'submission',
];

export const TARGETS = {
  /** Heartbeat CPU per request at the busy rate (alone), over its saturated cost (the `heartbeat` scenario). */
  heartbeatBusyOverSaturated: both(2),
  /** Batch heartbeats at the busy rate (alone): CPU per shift, µs (database included). */
  batchUsPerShift: { sqlite: 10, postgres: 25 },
  /** Start + stop at the busy rate (alone): CPU per cycle, ms (database included). */
  cycleMs: { sqlite: 0.6, postgres: 1.2 },
  /** The gateway's event-loop delay in the busy mix, ms. */
  mixLoopP99Ms: both(5),
  mixLoopMaxMs: both(20),
  /** Each read's p99 in the busy mix over its p99 alone at the same rate. */
  mixReadP99OverAlone: both(2),
  /** Single heartbeats' p99 in the busy mix, ms (from the due instant). */
  mixHeartbeatP99Ms: { sqlite: 10, postgres: 15 },
  /** Week leaderboard page 1: CPU per read, ms (database included), in the `leaderboard-week` scenario. */
  leaderboardCpuMs: { sqlite: 0.25, postgres: 0.6 },
  /** The gateway's peak resident memory over the run (VmHWM), MB. */
  peakRssMb: both(250),
  /** Kept from before: reads p50 at LATENCY_CONNECTIONS connections, ms. */
  leaderboardP50Ms: both(30),
  summaryP50Ms: both(5),
  staffP50Ms: both(5),
  /** Kept from before: week leaderboard page 1 right after a stop, p50, ms. */
  coldLeaderboardP50Ms: { sqlite: 5, postgres: 10 },
  /** The reviewers' default queue page (100,000 submissions in the workspace), p50 at LATENCY_CONNECTIONS, ms. */
  queueP50Ms: both(5),
  /** One submission with 20 answers and its history, p50 at LATENCY_CONNECTIONS, ms. */
  submissionP50Ms: both(5),
  /** An application's intake: CPU per submission over a shift start's alone (`intake` over `start`). */
  intakeOverStart: both(1.5),
  /** Asking for an inactivity notice, and approving one: CPU per operation over a shift start's alone. */
  noticeRequestOverStart: both(1),
  noticeDecideOverStart: both(1),
  /** A roster page of 25 with a member's token: CPU per read over a week leaderboard page of 25's (`roster` over `leaderboard-week`). */
  rosterOverLeaderboard: both(1),
  /**
   * A signed `/activity` interaction: CPU per interaction over the API read it wraps (`summary`) plus the signature
   * check alone (measured in the run, discord-scenarios.ts).
   */
  discordOverSummaryAndCheck: both(1.1),
} as const satisfies Record<string, PerStore>;

/** The targets table of docs/BENCHMARKS.md: what each target says, with its limit per store. */
export const TARGET_ROWS: ReadonlyArray<{ readonly text: string; readonly limit: (store: StoreName) => string }> = [
  { text: 'heartbeat CPU per request at the busy rate, alone, over its saturated cost (`heartbeat`)', limit: (s) => `<= ${TARGETS.heartbeatBusyOverSaturated[s]} x` },
  { text: 'batch heartbeats at the busy rate, alone: CPU per shift', limit: (s) => `<= ${TARGETS.batchUsPerShift[s]} µs` },
  { text: 'start + stop at the busy rate, alone: CPU per cycle', limit: (s) => `<= ${TARGETS.cycleMs[s]} ms` },
  { text: 'busy mix: gateway event-loop delay p99', limit: (s) => `<= ${TARGETS.mixLoopP99Ms[s]} ms` },
  { text: 'busy mix: gateway event-loop delay max', limit: (s) => `<= ${TARGETS.mixLoopMaxMs[s]} ms` },
  { text: 'busy mix: each read\'s p99 over its p99 alone at the busy rate', limit: (s) => `<= ${TARGETS.mixReadP99OverAlone[s]} x` },
  { text: 'busy mix: single heartbeat p99', limit: (s) => `<= ${TARGETS.mixHeartbeatP99Ms[s]} ms` },
  { text: 'week leaderboard page 1: CPU per read (`leaderboard-week`)', limit: (s) => `<= ${TARGETS.leaderboardCpuMs[s]} ms` },
  { text: 'gateway peak RSS over the run', limit: (s) => `<= ${TARGETS.peakRssMb[s]} MB` },
  { text: `week leaderboard page p50 (page 1 and deep), at ${LATENCY_CONNECTIONS} connections`, limit: (s) => `<= ${TARGETS.leaderboardP50Ms[s]} ms` },
  { text: `summary p50, at ${LATENCY_CONNECTIONS} connections`, limit: (s) => `<= ${TARGETS.summaryP50Ms[s]} ms` },
  { text: `per-staff month p50, at ${LATENCY_CONNECTIONS} connections`, limit: (s) => `<= ${TARGETS.staffP50Ms[s]} ms` },
  { text: 'week leaderboard page 1 right after a stop (cold), p50', limit: (s) => `<= ${TARGETS.coldLeaderboardP50Ms[s]} ms` },
  { text: `reviewers' queue, default page of 25, p50 at ${LATENCY_CONNECTIONS} connections (\`queue\`)`, limit: (s) => `<= ${TARGETS.queueP50Ms[s]} ms` },
  { text: `one submission with 20 answers and its history, p50 at ${LATENCY_CONNECTIONS} connections (\`submission\`)`, limit: (s) => `<= ${TARGETS.submissionP50Ms[s]} ms` },
  { text: 'intake: CPU per submission over a shift start\'s alone (`intake` over `start`)', limit: (s) => `<= ${TARGETS.intakeOverStart[s]} x` },
  { text: 'asking for an inactivity notice: CPU per notice over a shift start\'s alone (`notice-request` over `start`)', limit: (s) => `<= ${TARGETS.noticeRequestOverStart[s]} x` },
  { text: 'approving a notice: CPU per approval over a shift start\'s alone (`notice-decide` over `start`)', limit: (s) => `<= ${TARGETS.noticeDecideOverStart[s]} x` },
  { text: 'a roster page of 25: CPU per read over a week leaderboard page of 25\'s (`roster` over `leaderboard-week`)', limit: (s) => `<= ${TARGETS.rosterOverLeaderboard[s]} x` },
  {
    text: 'a signed `/activity` interaction: CPU over the summary\'s plus the signature check\'s alone (`discord-activity` over `summary` + the check)',
    limit: (s) => `<= ${TARGETS.discordOverSummaryAndCheck[s]} x`,
  },
];

const NOT_RUN: TargetResult['measured'] = 'not run';
const BUSY: OpenLevel = OPEN_LEVELS.find((level) => level.name === 'busy') ?? { name: 'busy', rates: { health: 0, heartbeats: 0, batches: 0, cycles: 0, reads: 0 } };

function judge(target: string, value: number | null | undefined, limit: number, measured: (value: number) => string): TargetResult {
  if (value === null || value === undefined || !Number.isFinite(value)) return { target, measured: NOT_RUN, pass: null };
  return { target, measured: measured(value), pass: value <= limit };
}

const us = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} µs`;
const ms = (value: number) => `${value.toLocaleString('en-US', { maximumFractionDigits: 3 })} ms`;
/** A figure beside the judged one, or "not run". */
const aside = (value: number | null | undefined, format: (value: number) => string) =>
  value === null || value === undefined || !Number.isFinite(value) ? NOT_RUN : format(value);

function openPhase(open: OpenRecord | null, level: string, phase: string): OpenPhaseRecord | undefined {
  return open?.phases.find((p) => p.level === level && p.phase === phase);
}

function perShift(cost: OperationCost | null | undefined): number | null {
  return cost && cost.shiftsPerOperation ? cost.totalUs / cost.shiftsPerOperation : null;
}

/**
 * A signed `/activity` interaction's CPU over the summary's plus the signature check's alone (`checkUs`, measured in
 * the run), judged by the `discord-activity` scenario once it is measured.
 */
export function discordTarget(store: StoreName, scenarios: readonly ScenarioRecord[], checkUs: number | null): TargetResult {
  const closed = (name: string) => scenarios.find((s) => s.name === name && (s.phase ?? 'throughput') === 'throughput')?.cost;
  const interaction = closed('discord-activity');
  const summary = closed('summary');
  const wrapped = summary && checkUs !== null ? summary.totalUs + checkUs : null;
  const ratio = interaction && wrapped ? interaction.totalUs / wrapped : null;
  const limit = TARGETS.discordOverSummaryAndCheck[store];
  return judge(`signed /activity interaction CPU <= ${limit} x the summary's + the signature check's`, ratio, limit, (r) =>
    `${r.toFixed(2)} x (${us(interaction?.totalUs ?? 0)} per interaction vs ${us(summary?.totalUs ?? 0)} per summary + ${us(checkUs ?? 0)} per check alone)`,
  );
}

export function evaluateTargets(
  store: StoreName,
  scenarios: readonly ScenarioRecord[],
  open: OpenRecord | null,
  serverPeakRssMb: number,
): TargetResult[] {
  const closed = (name: string, phase = 'throughput') => scenarios.find((s) => s.name === name && (s.phase ?? 'throughput') === phase);
  const out: TargetResult[] = [];

  const saturated = closed('heartbeat')?.cost;
  const busyHeartbeat = openPhase(open, 'busy', 'heartbeats')?.cost;
  const ratio = saturated && busyHeartbeat && saturated.totalUs > 0 ? busyHeartbeat.totalUs / saturated.totalUs : null;
  // What the same rate costs an empty request, for reference (not judged): the part of the ratio no heartbeat can shed.
  const busyHealth = openPhase(open, 'busy', 'health')?.cost;
  const reference = busyHealth && busyHeartbeat && busyHealth.totalUs > 0
    ? `; GET /health at ${BUSY.rates.health}/s ${us(busyHealth.totalUs)}, the heartbeat ${(busyHeartbeat.totalUs / busyHealth.totalUs).toFixed(2)} x it`
    : '';
  out.push(
    judge(`heartbeat CPU at the busy rate <= ${TARGETS.heartbeatBusyOverSaturated[store]} x saturated`, ratio, TARGETS.heartbeatBusyOverSaturated[store], (r) =>
      `${r.toFixed(2)} x (${us(busyHeartbeat?.totalUs ?? 0)} at ${BUSY.rates.heartbeats}/s vs ${us(saturated?.totalUs ?? 0)} saturated${reference})`,
    ),
  );
  const batch = openPhase(open, 'busy', 'batches')?.cost;
  const shiftUs = perShift(batch);
  out.push(
    judge(`batch heartbeats at the busy rate <= ${TARGETS.batchUsPerShift[store]} µs CPU per shift`, shiftUs, TARGETS.batchUsPerShift[store], (v) =>
      `${us(v)} (${us(batch?.totalUs ?? 0)} per batch of ${batch?.shiftsPerOperation}; saturated: ${aside(perShift(closed('heartbeat-batch')?.cost), us)})`,
    ),
  );
  const cycle = openPhase(open, 'busy', 'cycles')?.cost;
  out.push(
    judge(`start + stop at the busy rate <= ${TARGETS.cycleMs[store]} ms CPU per cycle`, cycle ? cycle.totalUs / 1000 : null, TARGETS.cycleMs[store], (v) =>
      `${ms(v)} (saturated: ${aside(closed('start-stop')?.cost?.totalUs, (t) => ms(t / 1000))})`,
    ),
  );

  const mix = openPhase(open, 'busy', 'mix');
  out.push(judge(`busy mix: gateway event-loop delay p99 <= ${TARGETS.mixLoopP99Ms[store]} ms`, mix?.serverLoop?.p99, TARGETS.mixLoopP99Ms[store], ms));
  out.push(judge(`busy mix: gateway event-loop delay max <= ${TARGETS.mixLoopMaxMs[store]} ms`, mix?.serverLoop?.max, TARGETS.mixLoopMaxMs[store], ms));
  const readsAlone = openPhase(open, 'busy', 'reads')?.streams[0]?.latency ?? [];
  const readsMixed = mix?.streams.find((s) => s.name === 'reads')?.latency ?? [];
  for (const row of readsAlone.filter((r) => r.kind !== null)) {
    const mixed = readsMixed.find((r) => r.kind === row.kind);
    const over = mixed && row.p99 > 0 ? mixed.p99 / row.p99 : null;
    out.push(
      judge(`busy mix: ${row.kind} p99 <= ${TARGETS.mixReadP99OverAlone[store]} x alone`, over, TARGETS.mixReadP99OverAlone[store], (v) =>
        `${v.toFixed(2)} x (${ms(mixed?.p99 ?? 0)} vs ${ms(row.p99)} alone)`,
      ),
    );
  }
  if (readsAlone.length === 0) out.push({ target: `busy mix: each read's p99 <= ${TARGETS.mixReadP99OverAlone[store]} x alone`, measured: NOT_RUN, pass: null });
  const heartbeatMixed = mix?.streams.find((s) => s.name === 'heartbeats')?.latency[0];
  out.push(judge(`busy mix: heartbeat p99 <= ${TARGETS.mixHeartbeatP99Ms[store]} ms`, heartbeatMixed?.p99, TARGETS.mixHeartbeatP99Ms[store], (v) =>
    `${ms(v)} (p99.9 ${ms(heartbeatMixed?.p99_9 ?? 0)})`,
  ));

  const page = closed('leaderboard-week')?.cost;
  out.push(judge(`week leaderboard page 1 <= ${TARGETS.leaderboardCpuMs[store]} ms CPU per read`, page ? page.totalUs / 1000 : null, TARGETS.leaderboardCpuMs[store], ms));

  const peaks = [
    ...scenarios.map((s) => ({ name: s.name, mb: s.serverPeakRssMb })),
    ...(open?.phases ?? []).map((p) => ({ name: `open ${p.level} ${p.phase}`, mb: p.serverPeakRssMb })),
  ];
  const worst = peaks.reduce<{ name: string; mb: number } | null>((acc, p) => (acc === null || p.mb > acc.mb ? p : acc), null);
  out.push(judge(`gateway peak RSS <= ${TARGETS.peakRssMb[store]} MB over the run (VmHWM)`, serverPeakRssMb, TARGETS.peakRssMb[store], (v) =>
    `${v.toFixed(0)} MB` + (worst ? ` (highest sampled in a scenario: ${worst.mb.toFixed(0)} MB, ${worst.name})` : ''),
  ));

  const p50 = (name: string, limit: number, label: string) => {
    const latency = closed(name, 'latency');
    out.push(judge(`${label} p50 <= ${limit} ms (at ${LATENCY_CONNECTIONS} connections)`, latency?.latencyMs.p50, limit, ms));
  };
  p50('leaderboard-week', TARGETS.leaderboardP50Ms[store], 'week leaderboard page 1');
  p50('leaderboard-week-deep', TARGETS.leaderboardP50Ms[store], 'week leaderboard deep page');
  p50('summary', TARGETS.summaryP50Ms[store], 'summary');
  p50('staff-month', TARGETS.staffP50Ms[store], 'per-staff month');
  const cold = closed('cold-leaderboard', 'cold');
  out.push(judge(`week leaderboard page 1 right after a stop (cold) p50 <= ${TARGETS.coldLeaderboardP50Ms[store]} ms`, cold?.latencyMs.p50, TARGETS.coldLeaderboardP50Ms[store], (v) =>
    `${ms(v)} (p99 ${ms(cold?.latencyMs.p99 ?? 0)}, ${cold?.requests} reads)`,
  ));
  p50('queue', TARGETS.queueP50Ms[store], "reviewers' queue page");
  p50('submission', TARGETS.submissionP50Ms[store], 'one submission');
  const start = closed('start')?.cost;
  /** A write's CPU per operation over a shift start's alone, judged against `limit`. */
  const overStart = (name: string, label: string, limit: number) => {
    const write = closed(name)?.cost;
    const ratio = write && start && start.totalUs > 0 ? write.totalUs / start.totalUs : null;
    out.push(
      judge(`${label} <= ${limit} x a shift start's`, ratio, limit, (r) =>
        `${r.toFixed(2)} x (${us(write?.totalUs ?? 0)} per ${write?.unit ?? 'operation'} vs ${us(start?.totalUs ?? 0)} per start)`,
      ),
    );
  };
  overStart('intake', 'intake CPU per submission', TARGETS.intakeOverStart[store]);
  overStart('notice-request', 'notice request CPU per notice', TARGETS.noticeRequestOverStart[store]);
  overStart('notice-decide', 'notice approval CPU per approval', TARGETS.noticeDecideOverStart[store]);
  const roster = closed('roster')?.cost;
  const rosterRatio = roster && page && page.totalUs > 0 ? roster.totalUs / page.totalUs : null;
  out.push(
    judge(`roster page CPU <= ${TARGETS.rosterOverLeaderboard[store]} x a week leaderboard page's (25 each)`, rosterRatio, TARGETS.rosterOverLeaderboard[store], (r) =>
      `${r.toFixed(2)} x (${us(roster?.totalUs ?? 0)} per page vs ${us(page?.totalUs ?? 0)})`,
    ),
  );
  return out;
}
