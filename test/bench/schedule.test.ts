import { describe, expect, it } from 'vitest';
import { dueAt, dueCount, inWindow, scheduledCount, streamOffsets } from '../../bench/open/schedule.ts';

describe('benchmark: the open-loop timetable', () => {
  it('spaces a stream evenly at its rate from its offset', () => {
    expect([0, 1, 2, 700].map((i) => dueAt(i, 700, 0))).toEqual([0, 1000 / 700, 2000 / 700, 1000]);
    expect(dueAt(3, 4, 100)).toBe(850);
  });

  it('knows how many operations are due at an instant, the one due exactly then included', () => {
    expect(dueCount(0, 10, 0)).toBe(1);
    expect(dueCount(99.9, 10, 0)).toBe(1);
    expect(dueCount(100, 10, 0)).toBe(2);
    expect(dueCount(49, 10, 50)).toBe(0);
    expect(dueCount(50, 10, 50)).toBe(1);
    expect(dueCount(1000, 7, 0)).toBe(8);
  });

  it('agrees with dueAt at every due instant, for rates that do not divide a second', () => {
    const disagreements: string[] = [];
    for (const rate of [7, 14, 28, 700, 1400]) {
      for (let i = 0; i < 3000; i += 1) {
        const count = dueCount(dueAt(i, rate, 3), rate, 3);
        if (count !== i + 1) disagreements.push(`rate ${rate}, operation ${i}: ${count}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('schedules the operations due before the end of a phase: rate x length', () => {
    expect(scheduledCount(26_000, 700, 0)).toBe(18_200);
    expect(scheduledCount(1000, 7, 0)).toBe(7);
    expect(scheduledCount(1000, 7, 1)).toBe(7);
    expect(scheduledCount(1000, 28, 1000 / 28 / 2)).toBe(28);
    expect(scheduledCount(100, 5, 200)).toBe(0);
  });

  it('shifts the k-th of n streams by k/n of its own interval', () => {
    expect(streamOffsets([700, 14, 7, 28])).toEqual([0, ((1 / 4) * 1000) / 14, ((2 / 4) * 1000) / 7, ((3 / 4) * 1000) / 28]);
    expect(streamOffsets([100])).toEqual([0]);
    expect(streamOffsets([])).toEqual([]);
  });

  it('measures the operations due in [from, to)', () => {
    expect(inWindow(2000, 2000, 26_000)).toBe(true);
    expect(inWindow(1999.9, 2000, 26_000)).toBe(false);
    expect(inWindow(26_000, 2000, 26_000)).toBe(false);
  });
});
