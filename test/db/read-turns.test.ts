import { describe, expect, it } from 'vitest';
import { ReadTurns } from '../../src/db/read-turns.ts';

/** Holds the thread for `ms`, as a synchronous SQLite read does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

/** A read job as the report service makes one: async, its statements synchronous. */
function read(ms: number, log: number[], id: number) {
  return async () => {
    await Promise.resolve();
    busy(ms);
    log.push(id);
    return id;
  };
}

/**
 * The most reads that ran in one turn of the event loop while `work` ran: a 1 ms repeating timer notes how many
 * had run at each of its ticks, and every turn that runs a read (2 ms) is followed by a tick. Counting reads per
 * turn instead of timing the timer's waits keeps the test to what the budget decides: a busy machine that
 * preempts the process makes the waits longer, never the turns fuller.
 */
async function mostReadsInOneTurn(log: readonly number[], work: () => Promise<unknown>): Promise<number> {
  let counted = 0;
  let most = 0;
  const timer = setInterval(() => {
    most = Math.max(most, log.length - counted);
    counted = log.length;
  }, 1);
  try {
    await work();
    // The tick after the last read's turn.
    await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    clearInterval(timer);
  }
  return Math.max(most, log.length - counted);
}

describe('ReadTurns: reads spread over turns of the event loop', () => {
  it('a read runs at once when no read has used the turn', async () => {
    const turns = new ReadTurns(5);
    const log: number[] = [];
    const result = turns.run(read(0, log, 1));
    // Started synchronously: its first statement ran before run() returned control to this test's next microtask.
    expect(turns.waiting).toBe(0);
    expect(await result).toBe(1);
  });

  it('32 reads arriving in one turn run in arrival order over several turns; no turn holds them all', async () => {
    const turns = new ReadTurns(5);
    const log: number[] = [];
    let results: number[] = [];
    const most = await mostReadsInOneTurn(log, async () => {
      // Let the timer start, then 32 reads of 2 ms arrive in one turn, each in a callback of its own, as 32
      // requests do in one poll phase (their microtasks, the reads' statements, run between the callbacks).
      await new Promise((resolve) => setTimeout(resolve, 5));
      const pending = Array.from(
        { length: 32 },
        (_, i) => new Promise<number>((resolve, reject) => setImmediate(() => turns.run(read(2, log, i)).then(resolve, reject))),
      );
      results = await Promise.all(pending);
    });
    expect(results).toEqual(Array.from({ length: 32 }, (_, i) => i));
    expect(log).toEqual(results);
    // 64 ms of reads: without turns one turn would run them all. With a 5 ms budget a turn starts reads of 2 ms
    // while it has spent less than 5 ms: three at most.
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(3);
    expect(turns.waiting).toBe(0);
  });

  it('without the budget the same 32 reads all run in one turn: the test can fail', async () => {
    const log: number[] = [];
    const most = await mostReadsInOneTurn(log, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.all(
        Array.from({ length: 32 }, (_, i) => new Promise((resolve) => setImmediate(() => void read(2, log, i)().then(resolve)))),
      );
    });
    expect(most).toBe(32);
  });

  it('a failing read rejects its own caller only; the reads queued behind it still run', async () => {
    const turns = new ReadTurns(0);
    const log: number[] = [];
    const first = turns.run(read(1, log, 1));
    const failing = turns.run(async () => {
      await Promise.resolve();
      throw new Error('broken read');
    });
    const last = turns.run(read(1, log, 3));
    await expect(failing).rejects.toThrow('broken read');
    expect(await Promise.all([first, last])).toEqual([1, 3]);
  });
});
