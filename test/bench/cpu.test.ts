import { describe, expect, it } from 'vitest';
import { clusterTicks, cpuPercent, cpuUsed, operationCost, parseProcStat, type ProcStat } from '../../bench/cpu.ts';

/** A /proc/<pid>/stat line with the given fields (52 fields, as Linux 6 writes them). */
function statLine(pid: number, comm: string, fields: { ppid: number; utime: number; stime: number; cutime?: number; cstime?: number }): string {
  const rest = Array.from({ length: 50 }, () => '0');
  rest[0] = 'S';
  rest[1] = String(fields.ppid);
  rest[11] = String(fields.utime);
  rest[12] = String(fields.stime);
  rest[13] = String(fields.cutime ?? 0);
  rest[14] = String(fields.cstime ?? 0);
  return `${pid} (${comm}) ${rest.join(' ')}\n`;
}

const proc = (pid: number, ppid: number, utime: number, stime: number, cutime = 0, cstime = 0): ProcStat => ({
  pid,
  comm: 'postgres',
  ppid,
  utime,
  stime,
  cutime,
  cstime,
});

describe('benchmark: CPU accounting', () => {
  it('reads utime, stime, cutime, cstime and the parent from a stat line', () => {
    const line = statLine(4242, 'node', { ppid: 1, utime: 1500, stime: 320, cutime: 7, cstime: 3 });
    expect(parseProcStat(line)).toEqual({ pid: 4242, comm: 'node', ppid: 1, utime: 1500, stime: 320, cutime: 7, cstime: 3 });
  });

  it('reads a command name holding spaces and parentheses', () => {
    const line = statLine(77, 'postgres: 15/main: wsg (bench) idle', { ppid: 70, utime: 12, stime: 4 });
    const stat = parseProcStat(line);
    expect(stat.comm).toBe('postgres: 15/main: wsg (bench) idle');
    expect([stat.ppid, stat.utime, stat.stime]).toEqual([70, 12, 4]);
  });

  it('refuses what is not a stat line', () => {
    expect(() => parseProcStat('no parentheses here')).toThrow(/not a \/proc stat line/);
    expect(() => parseProcStat('1 (x) S')).toThrow(/not a number/);
  });

  it("counts the postmaster's own and reaped children's time and every live child's, and nothing else", () => {
    const postmaster = proc(100, 1, 10, 5, 300, 200);
    const processes = [postmaster, proc(101, 100, 40, 10), proc(102, 100, 7, 3), proc(500, 1, 9999, 9999), proc(600, 101, 50, 50)];
    expect(clusterTicks(postmaster, processes)).toBe(10 + 5 + 300 + 200 + 40 + 10 + 7 + 3);
  });

  it('counts a backend that exits during a phase once: its time moves from the live sum to the reaped one', () => {
    const before = clusterTicks(proc(100, 1, 0, 0, 0, 0), [proc(101, 100, 30, 10)]);
    // The backend spent 20 more ticks, exited and was reaped: its 60 ticks are now the postmaster's cutime + cstime.
    const after = clusterTicks(proc(100, 1, 0, 0, 45, 15), []);
    expect(after - before).toBe(20);
  });

  it('turns two readings into milliseconds of CPU (ticks of 10 ms) and wall seconds', () => {
    const use = cpuUsed({ atMs: 1000, gatewayTicks: 50, databaseTicks: 20 }, { atMs: 3500, gatewayTicks: 80, databaseTicks: 25 });
    expect(use).toEqual({ wallSeconds: 2.5, gatewayMs: 300, databaseMs: 50 });
    const noDatabase = cpuUsed({ atMs: 0, gatewayTicks: 0, databaseTicks: null }, { atMs: 1000, gatewayTicks: 1, databaseTicks: null });
    expect(noDatabase.databaseMs).toBeNull();
    expect(cpuPercent(300, 2.5)).toBe(12);
    expect(cpuPercent(null, 2.5)).toBeNull();
  });

  it('divides the CPU by the operations served, per operation and in total, in µs', () => {
    const use = { wallSeconds: 10, gatewayMs: 2070, databaseMs: 1000 };
    expect(operationCost(use, 10_000, 'heartbeat')).toEqual({ unit: 'heartbeat', operations: 10_000, gatewayUs: 207, databaseUs: 100, totalUs: 307 });
    const batch = operationCost({ wallSeconds: 10, gatewayMs: 100, databaseMs: null }, 125, 'batch', 50);
    expect(batch).toEqual({ unit: 'batch', operations: 125, gatewayUs: 800, databaseUs: null, totalUs: 800, shiftsPerOperation: 50 });
    expect(operationCost(use, 0, 'heartbeat')).toBeNull();
  });
});
