import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { allowedCpus, expandCpuList, pinLoadGenerator } from '../../bench/affinity.ts';
import { parseOptions } from '../../bench/options.ts';

describe('benchmark: load generator pinning', () => {
  it('reads CPU lists as taskset prints them', () => {
    expect(expandCpuList('0')).toEqual([0]);
    expect(expandCpuList('0,1')).toEqual([0, 1]);
    expect(expandCpuList('0-3,6,8-9\n')).toEqual([0, 1, 2, 3, 6, 8, 9]);
    expect(() => expandCpuList('zero')).toThrow(/not a CPU list/);
  });

  it('pins by default; --no-pin turns it off', () => {
    expect(parseOptions([], {}).pin).toBe(true);
    expect(parseOptions(['--no-pin'], {}).pin).toBe(false);
  });

  it('holds the process on its last CPU and gives every CPU back, or says why it cannot', () => {
    if (process.platform !== 'linux' || availableParallelism() < 2) {
      const pin = pinLoadGenerator();
      expect('reason' in pin ? pin.reason : '').not.toBe('');
      return;
    }
    const before = allowedCpus().cpus;
    const pin = pinLoadGenerator();
    if (!('cpu' in pin)) throw new Error(`not pinned: ${pin.reason}`);
    try {
      expect(pin.cpu).toBe(String(before[before.length - 1]));
      expect(allowedCpus().cpus).toEqual([before[before.length - 1]]);
    } finally {
      pin.release();
    }
    expect(allowedCpus().cpus).toEqual(before);
  });
});
