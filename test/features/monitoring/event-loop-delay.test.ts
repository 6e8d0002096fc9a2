/**
 * The event-loop delay gauges: a stall while requests are answered shows in them; after a quiet spell the
 * monitor stops sampling (so an idle gateway is not woken every 10 ms), and starts again with the next answer.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EventLoopDelayMonitor } from '../../../src/features/monitoring/event-loop-delay.ts';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { parseExposition } from '../../helpers/prometheus.ts';

const SAMPLE_MS = 10;
const IDLE_MS = 200;

/** Holds the event loop for `ms`, as a synchronous piece of work would. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

describe('the event-loop delay monitor', () => {
  const monitors: EventLoopDelayMonitor[] = [];
  const monitor = () => {
    const created = new EventLoopDelayMonitor(SAMPLE_MS, IDLE_MS);
    monitors.push(created);
    return created;
  };
  afterEach(() => {
    for (const m of monitors.splice(0)) m.stop();
  });

  it('records a stall while requests are answered', async () => {
    const m = monitor();
    m.touch();
    await sleep(30);
    stall(60);
    await sleep(30);
    expect(m.active).toBe(true);
    const delays = m.read();
    expect(delays.max).toBeGreaterThanOrEqual(0.05);
    expect(delays.p99).toBeGreaterThanOrEqual(delays.p50);
    // A read starts the next period: nothing sampled since is that stall.
    expect(m.read().max).toBeLessThan(0.05);
  });

  it('keeps sampling while answers keep coming, and stops a quiet spell after the last', async () => {
    const m = monitor();
    for (let i = 0; i < 5; i += 1) {
      m.touch();
      await sleep(IDLE_MS / 2);
    }
    expect(m.active).toBe(true);
    await sleep(IDLE_MS * 2);
    expect(m.active).toBe(false);
    m.read();
    stall(60);
    await sleep(30);
    // Not sampling: the stall is not seen, and the gauges read 0.
    expect(m.read()).toEqual({ min: 0, max: 0, mean: 0, stddev: 0, p50: 0, p90: 0, p99: 0 });

    m.touch();
    await sleep(30);
    stall(60);
    await sleep(30);
    expect(m.active).toBe(true);
    expect(m.read().max).toBeGreaterThanOrEqual(0.05);
  });
});

describe('the event-loop gauges of GET /metrics', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext('sqlite');
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('show a stall between two scrapes while the gateway answers, under the names prom-client gives them', async () => {
    expect((await ctx.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
    expect((await ctx.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    await sleep(30);
    stall(80);
    await sleep(30);
    const m = parseExposition((await ctx.inject({ method: 'GET', url: '/metrics' })).body);
    for (const name of ['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99']) {
      expect(m.types.get(`nodejs_eventloop_lag_${name}_seconds`), name).toBe('gauge');
    }
    expect(m.value('nodejs_eventloop_lag_max_seconds')).toBeGreaterThanOrEqual(0.07);
    expect(m.value('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    expect(m.value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });
});
