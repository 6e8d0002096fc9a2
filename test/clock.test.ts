import { describe, expect, it } from 'vitest';
import { toIso, toIsoOrNull } from '../src/shared/clock.ts';

describe('toIso', () => {
  it('formats exactly as Date#toISOString, across minutes, years and signs', () => {
    const instants = [
      0, 1, -1, 59_999, 60_000, -59_999, -60_000, -60_001, 1_763_784_000_123, 1_763_784_059_999,
      253_402_300_799_999, -62_167_219_200_000, 951_782_400_000, 1.5, -1.5,
    ];
    // Runs of nearby instants exercise the kept minute; the jumps between runs exercise its replacement.
    for (let i = 0; i < 2_000; i += 1) instants.push(1_700_000_000_000 + i * 7_919, -1_000_000_000_000 - i * 6_007);
    for (const instant of instants) expect(toIso(instant)).toBe(new Date(instant).toISOString());
  });

  it('refuses what Date refuses, and leaves null alone', () => {
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
    expect(() => toIso(8.64e15 + 1)).toThrow(RangeError);
    expect(toIso(8.64e15)).toBe(new Date(8.64e15).toISOString()); // a six-digit year is formatted, not kept
    expect(toIsoOrNull(null)).toBeNull();
  });
});
