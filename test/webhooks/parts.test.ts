import { describe, expect, it } from 'vitest';
import { CLAIM_GATHER_MS, pauseAfter } from '../../src/webhooks/dispatcher.ts';
import { HeldDeliveries } from '../../src/webhooks/held-deliveries.ts';
import { EndpointRecovery } from '../../src/webhooks/recovery.ts';
import type { ClaimedDelivery } from '../../src/webhooks/repository.ts';
import { afterAttempt, retryDelayMs } from '../../src/webhooks/retry.ts';
import { Pause } from '../../src/webhooks/timer.ts';
import { ManualTimer } from './manual-timer.ts';

/** The dispatcher's rules that need neither a database nor a receiver. */

function delivery(id: string, endpointId: string): ClaimedDelivery {
  return { id, eventId: `event-${id}`, endpointId, attempts: 0, expiresAt: 0, url: 'https://example.com/', secret: 'whsec_x', body: '{}', format: 'standard' };
}

describe('held deliveries', () => {
  it('sends within the per-endpoint and total slots, in claim order, and queues the rest', () => {
    const held = new HeldDeliveries({ concurrency: 3, perEndpointConcurrency: 2, freshForMs: 1_000 });
    for (const id of ['a1', 'a2', 'a3']) held.enqueue(delivery(id, 'a'), 0);
    for (const id of ['b1', 'b2']) held.enqueue(delivery(id, 'b'), 0);
    expect(held.take(0).send.map((d) => d.id)).toEqual(['a1', 'a2', 'b1']);
    expect([held.sending, held.waiting]).toEqual([3, 2]);
    expect(held.perEndpoint()).toEqual(new Map([['a', 3], ['b', 2]]));
    expect(held.take(0).send).toEqual([]);
    held.finished(delivery('a1', 'a'));
    expect(held.take(0).send.map((d) => d.id)).toEqual(['a3']);
    held.finished(delivery('b1', 'b'));
    expect(held.take(0).send.map((d) => d.id)).toEqual(['b2']);
    expect(held.holds('a2') && held.holds('b2') && !held.holds('a1')).toBe(true);
  });

  it('drops a queued delivery claimed too long ago instead of sending it', () => {
    const held = new HeldDeliveries({ concurrency: 1, perEndpointConcurrency: 1, freshForMs: 1_000 });
    held.enqueue(delivery('old', 'a'), 0);
    held.enqueue(delivery('new', 'a'), 500);
    expect(held.take(1_001)).toEqual({ send: [delivery('new', 'a')], stale: ['old'] });
    expect(held.dropQueued()).toEqual([]);
    expect(held.sendingIds()).toEqual(['new']);
  });
});

describe('after an attempt', () => {
  const policy = { firstDelayMs: 30_000, maxDelayMs: 3_600_000 };
  const at = 1_000_000;
  const attempt = (status: number | null, number: number, expiresAt = at + 86_400_000) => ({ status, number, finishedAt: at, expiresAt });

  it('a 2xx delivers; anything else is retried within the first delay, growing, and gives up when the window closes', () => {
    expect(afterAttempt(policy, attempt(204, 1))).toEqual({ outcome: 'delivered', nextAttemptAt: at });
    expect(afterAttempt(policy, attempt(500, 1), () => 0)).toEqual({ outcome: 'pending', nextAttemptAt: at + 15_000 });
    expect(afterAttempt(policy, attempt(null, 1), () => 1)).toEqual({ outcome: 'pending', nextAttemptAt: at + 30_000 });
    expect(afterAttempt(policy, attempt(302, 3), () => 1)).toEqual({ outcome: 'pending', nextAttemptAt: at + 120_000 });
    expect(retryDelayMs(policy, 20, () => 1)).toBe(3_600_000);
    // The last retry is made when the window closes; one finished after that gives up.
    expect(afterAttempt(policy, attempt(500, 5, at + 1_000), () => 1)).toEqual({ outcome: 'pending', nextAttemptAt: at + 1_000 });
    expect(afterAttempt(policy, attempt(500, 6, at))).toEqual({ outcome: 'failed', nextAttemptAt: at });
  });
});

describe('the pause after a claim', () => {
  it('goes on at once when due deliveries were left, gathers after taking all, polls after nothing or a full claim', () => {
    expect(pauseAfter({ claimed: 3, more: true, room: 10 }, 200)).toEqual({ ms: 0, wakeable: false });
    expect(pauseAfter({ claimed: 3, more: false, room: 10 }, 200)).toEqual({ ms: CLAIM_GATHER_MS, wakeable: false });
    expect(pauseAfter({ claimed: 10, more: true, room: 10 }, 200)).toEqual({ ms: 200, wakeable: true });
    expect(pauseAfter({ claimed: 0, more: true, room: 10 }, 200)).toEqual({ ms: 200, wakeable: true });
    expect(pauseAfter({ claimed: 0, more: false, room: 0 }, 200)).toEqual({ ms: 200, wakeable: true });
  });

  it('a wakeable pause ends on wake; any pause ends on interrupt; otherwise on its timer', async () => {
    const timer = new ManualTimer();
    const pause = new Pause(timer);
    const ended: string[] = [];
    void pause.wait(200, true).then(() => ended.push('woken'));
    pause.wake();
    void pause.wait(25, false).then(() => ended.push('gathered'));
    pause.wake();
    await timer.advance(24);
    expect(ended).toEqual(['woken']);
    await timer.advance(1);
    void pause.wait(25, false).then(() => ended.push('interrupted'));
    pause.interrupt();
    await timer.advance(0);
    expect(ended).toEqual(['woken', 'gathered', 'interrupted']);
    expect(timer.pending()).toEqual([]);
  });
});

describe('telling an endpoint is back', () => {
  const OUTAGE_MS = 30_000;

  it('a success after failures that lasted at least the outage time brings the endpoint forward, once', () => {
    const recovery = new EndpointRecovery(OUTAGE_MS);
    recovery.failed('a', 0);
    recovery.failed('a', 20_000);
    expect(recovery.succeeded('a', 29_999, false)).toBe(false);
    recovery.failed('a', 40_000);
    recovery.failed('a', 60_000);
    expect(recovery.succeeded('a', 70_000, false)).toBe(true);
    expect(recovery.succeeded('a', 70_001, false)).toBe(false);
  });

  it('failures among successes are not an outage, however long they go on', () => {
    const recovery = new EndpointRecovery(OUTAGE_MS);
    for (let at = 0; at < 300_000; at += 10_000) {
      recovery.failed('a', at);
      expect(recovery.succeeded('a', at + 5_000, false)).toBe(false);
    }
  });

  it('an endpoint failing for the outage time is probed: every outage time, then every twentieth of how long it is down', () => {
    const recovery = new EndpointRecovery(OUTAGE_MS);
    expect(recovery.failed('a', 0)).toBeNull();
    expect(recovery.failed('a', 29_999)).toBeNull();
    expect(recovery.failed('a', 30_000)).toBe(60_000);
    expect(recovery.failed('a', 600_000)).toBe(630_000);
    expect(recovery.failed('a', 36_000_000)).toBe(36_000_000 + 1_800_000);
    // A success ends the outage: the next failure starts a new one.
    recovery.succeeded('a', 36_000_001, true);
    expect(recovery.failed('a', 36_000_002)).toBeNull();
    expect(recovery.failed('b', 36_000_002)).toBeNull();
  });

  it('failures among successes never ask for a probe', () => {
    const recovery = new EndpointRecovery(OUTAGE_MS);
    for (let at = 0; at < 300_000; at += 10_000) {
      expect(recovery.failed('a', at)).toBeNull();
      recovery.succeeded('a', at + 5_000, false);
    }
  });

  it('a retry that succeeds brings the endpoint forward, at most once per outage time', () => {
    const recovery = new EndpointRecovery(OUTAGE_MS);
    expect(recovery.succeeded('a', 0, true)).toBe(true);
    expect(recovery.succeeded('a', 29_999, true)).toBe(false);
    expect(recovery.succeeded('a', 30_000, true)).toBe(true);
    expect(recovery.succeeded('b', 30_000, false)).toBe(false);
  });
});
