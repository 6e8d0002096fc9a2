import { describe, expect, it } from 'vitest';
import { discordTarget, evaluateTargets, type TargetResult } from '../../bench/targets.ts';
import { cost, open, scenario, scenarios } from './fixtures.ts';

function byStart(results: readonly TargetResult[], start: string): TargetResult {
  const found = results.find((r) => r.target.startsWith(start));
  if (!found) throw new Error(`no target starting "${start}" in ${results.map((r) => r.target).join('; ')}`);
  return found;
}

describe('benchmark: targets', () => {
  const results = evaluateTargets('sqlite', scenarios, open, 240);

  it('judges the heartbeat at the busy rate against its saturated cost, and sets /health at that rate beside it', () => {
    expect(byStart(results, 'heartbeat CPU at the busy rate')).toMatchObject({
      pass: false,
      measured: '2.50 x (500 µs at 700/s vs 200 µs saturated; GET /health at 700/s 125 µs, the heartbeat 4.00 x it)',
    });
    const withoutReference = { ...open, phases: open.phases.filter((p) => p.phase !== 'health') };
    expect(byStart(evaluateTargets('sqlite', scenarios, withoutReference, 240), 'heartbeat CPU at the busy rate').measured).toBe(
      '2.50 x (500 µs at 700/s vs 200 µs saturated)',
    );
    expect(evaluateTargets('postgres', scenarios, open, 240).find((r) => r.target.startsWith('heartbeat CPU'))?.target).toContain('<= 2 x');
  });

  it('judges batches per shift and cycles per cycle, with the store\'s limits', () => {
    expect(byStart(results, 'batch heartbeats at the busy rate')).toMatchObject({ pass: true, measured: expect.stringMatching(/^8 µs \(400 µs per batch of 50; saturated: 16 µs\)/) });
    expect(byStart(results, 'start + stop at the busy rate')).toMatchObject({ pass: false, measured: '0.7 ms (saturated: not run)' });
    expect(byStart(evaluateTargets('postgres', scenarios, open, 240), 'start + stop at the busy rate').pass).toBe(true);
  });

  it('judges the busy mix: loop delay, each read against itself alone, heartbeat p99', () => {
    expect(byStart(results, 'busy mix: gateway event-loop delay p99').pass).toBe(false);
    expect(byStart(results, 'busy mix: gateway event-loop delay max').pass).toBe(true);
    expect(byStart(results, 'busy mix: leaderboard-week p99')).toMatchObject({ pass: true, measured: expect.stringMatching(/^1\.75 x/) });
    expect(byStart(results, 'busy mix: summary p99')).toMatchObject({ pass: false, measured: expect.stringMatching(/^2\.40 x/) });
    expect(byStart(results, 'busy mix: heartbeat p99')).toMatchObject({ pass: true });
    expect(byStart(evaluateTargets('postgres', scenarios, open, 240), 'busy mix: heartbeat p99').target).toContain('15 ms');
  });

  it('judges the leaderboard read, memory and the kept latency targets; what did not run is n/a', () => {
    expect(byStart(results, 'week leaderboard page 1 <=')).toMatchObject({ pass: true, measured: '0.24 ms' });
    expect(byStart(results, 'gateway peak RSS')).toMatchObject({ pass: true, measured: expect.stringContaining('230 MB, leaderboard-week') });
    expect(byStart(evaluateTargets('sqlite', scenarios, open, 260), 'gateway peak RSS').pass).toBe(false);
    expect(byStart(results, 'week leaderboard page 1 p50').pass).toBe(true);
    expect(byStart(results, 'summary p50').pass).toBe(false);
    expect(byStart(results, 'per-staff month p50')).toMatchObject({ pass: null, measured: 'not run' });
    expect(byStart(results, 'week leaderboard page 1 right after a stop').pass).toBeNull();
  });

  it('reports every open-loop target as not run without the open scenario', () => {
    const without = evaluateTargets('sqlite', scenarios, null, 240);
    for (const start of ['heartbeat CPU at the busy rate', 'batch heartbeats', 'start + stop', 'busy mix: gateway event-loop delay p99', 'busy mix: heartbeat p99']) {
      expect(byStart(without, start).pass).toBeNull();
    }
  });

  it('judges the applications: queue and submission p50 at 4 connections, intake CPU over a start alone', () => {
    const withApplications = [
      ...scenarios,
      scenario('queue', 'throughput', { p50: 20 }),
      scenario('queue', 'latency', { p50: 1.2 }),
      scenario('submission', 'latency', { p50: 5.5 }),
      scenario('start', 'throughput', { cost: cost('start', 400) }),
      scenario('intake', 'throughput', { cost: cost('submission', 500) }),
    ];
    const judged = evaluateTargets('sqlite', withApplications, open, 240);
    expect(byStart(judged, "reviewers' queue page p50 <= 5 ms")).toMatchObject({ pass: true, measured: '1.2 ms' });
    expect(byStart(judged, 'one submission p50 <= 5 ms')).toMatchObject({ pass: false, measured: '5.5 ms' });
    expect(byStart(judged, 'intake CPU per submission <= 1.5 x')).toMatchObject({
      pass: true,
      measured: '1.25 x (500 µs per submission vs 400 µs per start)',
    });
    const slowIntake = withApplications.map((s) => (s.name === 'intake' ? scenario('intake', 'throughput', { cost: cost('submission', 700) }) : s));
    expect(byStart(evaluateTargets('postgres', slowIntake, open, 240), 'intake CPU').pass).toBe(false);
  });

  it('reports the applications targets as not run without their scenarios (intake without start included)', () => {
    for (const start of ["reviewers' queue page p50", 'one submission p50', 'intake CPU']) {
      expect(byStart(results, start)).toMatchObject({ pass: null, measured: 'not run' });
    }
    const intakeOnly = [...scenarios, scenario('intake', 'throughput', { cost: cost('submission', 500) })];
    expect(byStart(evaluateTargets('sqlite', intakeOnly, open, 240), 'intake CPU').pass).toBeNull();
  });

  it('judges asking for and approving an inactivity notice against a shift start alone, on both stores', () => {
    const withNotices = [
      ...scenarios,
      scenario('start', 'throughput', { cost: cost('start', 400) }),
      scenario('notice-request', 'throughput', { cost: cost('notice', 300) }),
      scenario('notice-decide', 'throughput', { cost: cost('approval', 440) }),
    ];
    for (const store of ['sqlite', 'postgres'] as const) {
      const judged = evaluateTargets(store, withNotices, open, 240);
      expect(byStart(judged, 'notice request CPU per notice <= 1 x')).toMatchObject({
        pass: true,
        measured: '0.75 x (300 µs per notice vs 400 µs per start)',
      });
      expect(byStart(judged, 'notice approval CPU per approval <= 1 x')).toMatchObject({
        pass: false,
        measured: '1.10 x (440 µs per approval vs 400 µs per start)',
      });
    }
  });

  it('reports the notice targets as not run without their scenario or without start', () => {
    for (const start of ['notice request CPU', 'notice approval CPU']) {
      expect(byStart(results, start)).toMatchObject({ pass: null, measured: 'not run' });
    }
    const withoutStart = [...scenarios, scenario('notice-request', 'throughput', { cost: cost('notice', 300) })];
    expect(byStart(evaluateTargets('sqlite', withoutStart, open, 240), 'notice request CPU').pass).toBeNull();
  });

  it('judges a roster page against a week leaderboard page of the same size, on both stores', () => {
    for (const store of ['sqlite', 'postgres'] as const) {
      const cheaper = evaluateTargets(store, [...scenarios, scenario('roster', 'throughput', { cost: cost('request', 216) })], open, 240);
      expect(byStart(cheaper, 'roster page CPU <= 1 x')).toMatchObject({ pass: true, measured: '0.90 x (216 µs per page vs 240 µs)' });
      const dearer = evaluateTargets(store, [...scenarios, scenario('roster', 'throughput', { cost: cost('request', 360) })], open, 240);
      expect(byStart(dearer, 'roster page CPU <= 1 x')).toMatchObject({ pass: false, measured: '1.50 x (360 µs per page vs 240 µs)' });
    }
    expect(byStart(results, 'roster page CPU')).toMatchObject({ pass: null, measured: 'not run' });
  });

  it('judges a signed interaction against the summary plus the signature check alone; without either, not run', () => {
    const measured = [
      ...scenarios,
      scenario('summary', 'throughput', { cost: cost('request', 300) }),
      scenario('discord-activity', 'throughput', { cost: cost('request', 420) }),
    ];
    expect(discordTarget('sqlite', measured, 100)).toMatchObject({
      pass: true,
      measured: '1.05 x (420 µs per interaction vs 300 µs per summary + 100 µs per check alone)',
    });
    expect(discordTarget('postgres', measured, 50)).toMatchObject({ pass: false, measured: expect.stringMatching(/^1\.20 x/) });
    expect(discordTarget('sqlite', measured, null)).toMatchObject({ pass: null, measured: 'not run' });
    expect(discordTarget('sqlite', scenarios, 100)).toMatchObject({ pass: null, measured: 'not run' });
  });
});
