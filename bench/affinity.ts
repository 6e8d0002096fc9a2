/**
 * Keeps the load generator off the server's core while a run measures.
 *
 * autocannon runs in this process, on the same machine as the server. Each response the server writes wakes the
 * client, and Linux tends to run the woken task on the waker's core, where it can preempt the server in the middle
 * of a request. That measures the co-location as much as the server; in production the clients are other
 * machines. So, for the measured phases, this process (all its threads) is held on one CPU, the last it may use,
 * while the server and PostgreSQL stay free to run on every CPU, that one included. In interleaved runs on two
 * cores, the heartbeat made 0.27 to 0.35 x the baseline with the client held and 0.20 to 0.30 x without; the
 * baseline (where the client is always busy, so seldom woken) did not move beyond its noise.
 */
import { execFileSync } from 'node:child_process';

export interface LoadGeneratorPin {
  /** The CPU the load generator was held on, as `taskset` lists it. */
  readonly cpu: string;
  /** Lets the process run on the CPUs it had before again. */
  release(): void;
}

function taskset(...args: string[]): string {
  return execFileSync('taskset', [...args, String(process.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The CPUs of a list as `taskset` prints it ("0-3,6"), in order. */
export function expandCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) throw new Error(`not a CPU list: "${list}"`);
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let cpu = first; cpu <= last; cpu += 1) cpus.push(cpu);
  }
  return cpus;
}

/** The CPUs this process may run on now: as `taskset` prints them, and expanded. */
export function allowedCpus(): { readonly list: string; readonly cpus: number[] } {
  const list = taskset('--cpu-list', '--pid').split(':').pop()?.trim() ?? '';
  return { list, cpus: expandCpuList(list) };
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
}

/**
 * Holds this process on the last CPU it may run on, or says why it could not: one CPU, a system without
 * `taskset` (Linux's util-linux), or a refusal. Servers started before the call keep their own CPUs.
 */
export function pinLoadGenerator(): LoadGeneratorPin | { readonly reason: string } {
  if (process.platform !== 'linux') return { reason: `no CPU pinning on ${process.platform}` };
  let allowed: ReturnType<typeof allowedCpus>;
  try {
    allowed = allowedCpus();
  } catch (error) {
    return { reason: `taskset: ${reasonOf(error)}` };
  }
  const { cpus } = allowed;
  const last = cpus[cpus.length - 1];
  if (cpus.length < 2 || last === undefined) return { reason: 'one CPU: the client and the server share it' };
  try {
    taskset('--all-tasks', '--cpu-list', '--pid', String(last));
  } catch (error) {
    return { reason: `taskset: ${reasonOf(error)}` };
  }
  return {
    cpu: String(last),
    release: () => {
      try {
        taskset('--all-tasks', '--cpu-list', '--pid', allowed.list);
      } catch {
        // The run is ending; a process held on one CPU harms nothing.
      }
    },
  };
}
