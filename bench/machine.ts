import { cpus, loadavg, release, totalmem, type } from 'node:os';

export interface MachineDescription {
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryGb: number;
  readonly os: string;
  readonly node: string;
  /** The store's engine and version. */
  readonly engine: string;
  /** 1-minute load average when the run started and ended: other work on the machine skews the numbers. */
  readonly loadAverage: { readonly start: number; readonly end: number };
}

export function describeMachine(engine: string, loadAtStart: number): MachineDescription {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    engine,
    loadAverage: { start: loadAtStart, end: Math.round((loadavg()[0] ?? 0) * 100) / 100 },
  };
}

export function currentLoad(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}
