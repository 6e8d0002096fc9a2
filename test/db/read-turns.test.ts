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

/** The longest time a 1 ms repeating timer waited beyond its interval while `work` ran. */
async function longestTimerWait(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  try {
    await work();
    // The tick that was due while the last work ran comes now.
    await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    clearInterval(timer);
  }
  return longest;
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
    const longest = await longestTimerWait(async () => {
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
    // 64 ms of reads: without turns a timer would wait for all of them. With a 5 ms budget a turn holds at most
    // about three reads beyond its budget (one already running when the budget ends).
    expect(longest).toBeLessThan(25);
    expect(turns.waiting).toBe(0);
  });

  it('without the budget (all reads in one turn) the same timer waits for every read: the test can fail', async () => {
    const log: number[] = [];
    const longest = await longestTimerWait(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await Promise.all(
        Array.from({ length: 32 }, (_, i) => new Promise((resolve) => setImmediate(() => void read(2, log, i)().then(resolve)))),
      );
    });
    expect(longest).toBeGreaterThan(50);
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
