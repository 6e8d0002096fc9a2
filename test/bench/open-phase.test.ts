import { describe, expect, it } from 'vitest';
import type { OpenAnswer, OpenClient } from '../../bench/open/client.ts';
import { runPhase } from '../../bench/open/phase.ts';
import type { OpenRequest, OpenStream } from '../../bench/open/scenario.ts';

/** A client that answers every request at once with `status` (a start's answer names a shift). */
function fakeClient(status: (request: OpenRequest) => number): OpenClient & { sent: OpenRequest[] } {
  const sent: OpenRequest[] = [];
  return {
    sent,
    socketsOpened: 0,
    send(request: OpenRequest, keepBody: boolean): Promise<OpenAnswer> {
      sent.push(request);
      const code = status(request);
      const body = keepBody ? JSON.stringify({ data: { shift: { id: `shift-of-${request.path.length}-${sent.length}` } } }) : null;
      return Promise.resolve({ status: code, body, endedAt: performance.now(), error: code === 0 ? 'connection refused' : null });
    },
    close: () => undefined,
  };
}

const single: OpenStream = {
  name: 'heartbeats',
  title: 'test',
  unit: 'heartbeat',
  operation: (i, tag) => ({ first: { kind: 'heartbeat', method: 'POST', path: `/hb/${i}`, headers: { 'idempotency-key': `${tag}-${i}` }, body: '{}' } }),
};

const cycle: OpenStream = {
  name: 'cycles',
  title: 'test',
  unit: 'cycle',
  operation: (i) => ({
    first: { kind: 'start', method: 'POST', path: `/start/${i}`, headers: {} },
    then: {
      afterMs: 5,
      request: (answer) => {
        const id = (JSON.parse(answer) as { data: { shift: { id: string } } }).data.shift.id;
        return { kind: 'stop', method: 'POST', path: `/shifts/${id}/stop`, headers: {} };
      },
    },
  }),
};

// 100 operations a second; 50 ms of warm-up, then 200 ms measured: operations 5 to 24 are due in the window.
const timing = { warmupMs: 50, measureMs: 200 };

describe('benchmark: an open-loop phase', () => {
  it('sends every operation of the timetable and measures those due in the window', async () => {
    const client = fakeClient(() => 200);
    let windowStarts = 0;
    const outcome = await runPhase(client, [{ stream: single, rate: 100 }], timing, { onWindowStart: () => (windowStarts += 1) }, 't');
    const stream = outcome.streams[0];
    expect(windowStarts).toBe(1);
    expect(client.sent).toHaveLength(25);
    expect(new Set(client.sent.map((r) => r.headers['idempotency-key'])).size).toBe(25);
    expect(stream?.scheduled).toBe(20);
    expect(stream?.latency.get('heartbeat')?.count).toBe(20);
    expect(outcome.sendLag.count).toBe(20);
    expect(stream?.completed).toBeGreaterThanOrEqual(20);
    expect([stream?.errors, stream?.unexpected]).toEqual([0, 0]);
    expect(stream?.statusCounts).toEqual({ '200': 25 });
  });

  it("sends a cycle's second request with what the first answered, and times both", async () => {
    const client = fakeClient(() => 200);
    const outcome = await runPhase(client, [{ stream: cycle, rate: 100 }], timing, { onWindowStart: () => undefined }, 't');
    const stream = outcome.streams[0];
    const stops = client.sent.filter((r) => r.kind === 'stop');
    expect(stops).toHaveLength(25);
    expect(stops.every((r) => /^\/shifts\/shift-of-\d+-\d+\/stop$/.test(r.path))).toBe(true);
    expect(stream?.latency.get('start')?.count).toBe(20);
    expect(stream?.latency.get('stop')?.count).toBe(20);
    expect(stream?.statusCounts).toEqual({ '200': 50 });
  });

  it('counts answers other than 200 and requests without an answer, and completes nothing', async () => {
    const client = fakeClient((request) => (request.path.endsWith('/3') ? 0 : 503));
    const outcome = await runPhase(client, [{ stream: single, rate: 100 }], timing, { onWindowStart: () => undefined }, 't');
    const stream = outcome.streams[0];
    expect(stream?.errors).toBe(1);
    expect(stream?.unexpected).toBe(24);
    expect(stream?.completed).toBe(0);
    expect(stream?.statusCounts).toEqual({ '0': 1, '503': 24 });
    expect(stream?.problems[0]).toMatch(/status 503|connection refused/);
  });

  it('does not send the second request of a cycle whose first failed', async () => {
    const client = fakeClient((request) => (request.kind === 'start' ? 409 : 200));
    const outcome = await runPhase(client, [{ stream: cycle, rate: 100 }], timing, { onWindowStart: () => undefined }, 't');
    expect(client.sent.filter((r) => r.kind === 'stop')).toHaveLength(0);
    expect(outcome.streams[0]?.unexpected).toBe(25);
  });

  it('runs several streams on one timetable, each at its own rate', async () => {
    const client = fakeClient(() => 200);
    const outcome = await runPhase(
      client,
      [
        { stream: single, rate: 100 },
        { stream: cycle, rate: 20 },
      ],
      timing,
      { onWindowStart: () => undefined },
      't',
    );
    expect(outcome.streams.map((s) => s.scheduled)).toEqual([20, 4]);
  });
});
