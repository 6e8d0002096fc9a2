/**
 * What an operation costs: the CPU time the gateway spent (its process, every thread: utime + stime of
 * /proc/<pid>/stat) and, on PostgreSQL, the database server's (every process of the cluster, the backends that
 * exited included), over a measured phase, divided by the operations it served.
 *
 * The database's CPU is the sum of utime + stime over the postmaster and its live children, plus the postmaster's
 * cutime + cstime, which accumulates the children it reaped: a backend that exits during a phase moves from the
 * first sum to the second, so the delta over the phase counts it exactly once. It counts every session of the
 * cluster, so on a shared database server other sessions' work is counted too (the run warns when it sees any).
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** Linux reports process CPU time in clock ticks of 1/100 s (USER_HZ). */
export const CLOCK_TICKS_PER_SECOND = 100;
const MS_PER_TICK = 1000 / CLOCK_TICKS_PER_SECOND;

/** The fields of /proc/<pid>/stat the accounting reads; times in clock ticks. */
export interface ProcStat {
  readonly pid: number;
  readonly comm: string;
  readonly ppid: number;
  readonly utime: number;
  readonly stime: number;
  /** CPU time of reaped children (and theirs): user, system. */
  readonly cutime: number;
  readonly cstime: number;
}

/** Parses one /proc/<pid>/stat line; the command name may hold spaces and parentheses. */
export function parseProcStat(text: string): ProcStat {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) throw new Error(`not a /proc stat line: "${text.slice(0, 80)}"`);
  // After the name: state (0), ppid (1), … utime (11), stime (12), cutime (13), cstime (14).
  const fields = text.slice(close + 2).trim().split(' ');
  const field = (index: number) => {
    const value = Number(fields[index]);
    if (!Number.isFinite(value)) throw new Error(`field ${index + 3} of a /proc stat line is not a number`);
    return value;
  };
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    ppid: field(1),
    utime: field(11),
    stime: field(12),
    cutime: field(13),
    cstime: field(14),
  };
}

/** The cluster's CPU so far, in ticks: the postmaster's own and reaped children's, and each live child's. */
export function clusterTicks(postmaster: ProcStat, processes: readonly ProcStat[]): number {
  let ticks = postmaster.utime + postmaster.stime + postmaster.cutime + postmaster.cstime;
  for (const process of processes) {
    if (process.ppid === postmaster.pid && process.pid !== postmaster.pid) ticks += process.utime + process.stime;
  }
  return ticks;
}

function readStat(pid: number): ProcStat {
  return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** Every process's stat, skipping those that exit while they are listed. */
function allProcesses(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      out.push(readStat(Number(name)));
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

export interface CpuReading {
  /** performance.now() when read. */
  readonly atMs: number;
  readonly gatewayTicks: number;
  readonly databaseTicks: number | null;
}

/** CPU spent between two readings, ms (null: the database is not measured). */
export interface CpuUse {
  readonly wallSeconds: number;
  readonly gatewayMs: number;
  readonly databaseMs: number | null;
}

export function cpuUsed(from: CpuReading, to: CpuReading): CpuUse {
  return {
    wallSeconds: Math.round(to.atMs - from.atMs) / 1000,
    gatewayMs: (to.gatewayTicks - from.gatewayTicks) * MS_PER_TICK,
    databaseMs:
      from.databaseTicks === null || to.databaseTicks === null ? null : (to.databaseTicks - from.databaseTicks) * MS_PER_TICK,
  };
}

export interface CpuMeter {
  read(): CpuReading;
}

/** Reads the gateway process and, when `postmasterPid` is known, the database cluster. */
export function cpuMeter(gatewayPid: number, postmasterPid: number | null): CpuMeter {
  return {
    read() {
      const gateway = readStat(gatewayPid);
      let databaseTicks: number | null = null;
      if (postmasterPid !== null) {
        try {
          databaseTicks = clusterTicks(readStat(postmasterPid), allProcesses());
        } catch {
          databaseTicks = null;
        }
      }
      return { atMs: performance.now(), gatewayTicks: gateway.utime + gateway.stime, databaseTicks };
    },
  };
}

export type DatabaseServer =
  | { readonly postmasterPid: number; readonly otherSessions: number }
  | { readonly reason: string };

/**
 * The postmaster of the PostgreSQL server at `url`, when it runs on this machine (a session's backend process is
 * visible in /proc, named postgres, and its parent too), and how many client sessions other than the benchmark's
 * (`applicationName`) it serves now.
 */
export async function findDatabaseServer(url: string, applicationName: string): Promise<DatabaseServer> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, application_name: applicationName });
  await client.connect();
  try {
    const self = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const others = await client.query<{ n: string }>(
      `select count(*) as n from pg_stat_activity
       where backend_type = 'client backend' and pid <> pg_backend_pid() and coalesce(application_name, '') <> $1`,
      [applicationName],
    );
    const pid = self.rows[0]?.pid;
    if (pid === undefined) return { reason: 'the database did not name its backend' };
    let backend: ProcStat;
    let parent: ProcStat;
    try {
      backend = readStat(pid);
      parent = readStat(backend.ppid);
    } catch {
      return { reason: 'the database server does not run on this machine (its processes are not in /proc)' };
    }
    if (!backend.comm.startsWith('postgres') || !parent.comm.startsWith('postgres')) {
      return { reason: `process ${pid} here is not the database's backend (it is "${backend.comm}")` };
    }
    return { postmasterPid: parent.pid, otherSessions: Number(others.rows[0]?.n ?? 0) };
  } finally {
    await client.end();
  }
}

/** CPU per operation, µs: the gateway's, the database's (PostgreSQL) and their sum. */
export interface OperationCost {
  /** What one operation is: a request, a start + stop cycle, a batch of heartbeats. */
  readonly unit: string;
  readonly operations: number;
  readonly gatewayUs: number;
  readonly databaseUs: number | null;
  readonly totalUs: number;
  /** Batches: the shifts one operation carries (its cost per shift is totalUs / shiftsPerOperation). */
  readonly shiftsPerOperation?: number;
}

export function operationCost(use: CpuUse, operations: number, unit: string, shiftsPerOperation?: number): OperationCost | null {
  if (operations <= 0) return null;
  const per = (ms: number) => Math.round((ms * 1000 * 10) / operations) / 10;
  const gatewayUs = per(use.gatewayMs);
  const databaseUs = use.databaseMs === null ? null : per(use.databaseMs);
  return {
    unit,
    operations,
    gatewayUs,
    databaseUs,
    totalUs: Math.round((gatewayUs + (databaseUs ?? 0)) * 10) / 10,
    ...(shiftsPerOperation === undefined ? {} : { shiftsPerOperation }),
  };
}

/** CPU as a percentage of one core over the phase. */
export function cpuPercent(ms: number | null, wallSeconds: number): number | null {
  return ms === null || wallSeconds <= 0 ? null : Math.round(ms / wallSeconds / 10);
}
