import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../shared/clock.ts';
import type { Config } from '../shared/config.ts';
import type { Store } from '../db/connect.ts';
import { purgeExpiredRecords } from '../idempotency/index.ts';
import { sweepIntervalMs, sweepTimedOutShifts } from '../features/activity/shifts/sweep.ts';
import { pruneOldRecords } from '../features/retention/service.ts';

export interface BackgroundJobs {
  stop(): void;
}

export interface JobDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly config: Config;
  readonly log: FastifyBaseLogger;
}

interface Job {
  readonly name: string;
  readonly intervalMs: number;
  /** The first run, after start; `intervalMs` when unset. */
  readonly firstRunMs?: number;
  run(): Promise<unknown>;
}

/**
 * The retention prune runs hourly, and a minute after start so that an instance restarted more often than hourly
 * still prunes; an instance that finds nothing old deletes nothing, in one indexed read per table.
 */
const PRUNE_INTERVAL_MS = 60 * 60 * 1000;
const PRUNE_FIRST_RUN_MS = 60 * 1000;

/** Periodic maintenance of a serving instance. Every job is safe when several instances run it at once. */
export function startBackgroundJobs({ store, clock, config, log }: JobDeps): BackgroundJobs {
  const jobs: Job[] = [
    {
      name: 'idempotency-purge',
      intervalMs: 10 * 60 * 1000,
      run: () => purgeExpiredRecords(store.db, clock),
    },
    {
      name: 'shift-timeout-sweep',
      intervalMs: sweepIntervalMs(config.shiftTimeoutSeconds),
      run: () => sweepTimedOutShifts({ write: (job) => store.write(job), clock, config }),
    },
  ];
  if (config.retentionDays > 0) {
    jobs.push({
      name: 'retention-prune',
      intervalMs: PRUNE_INTERVAL_MS,
      firstRunMs: PRUNE_FIRST_RUN_MS,
      run: () => pruneOldRecords((job) => store.write(job), clock, { retentionDays: config.retentionDays }),
    });
  }
  const intervals: NodeJS.Timeout[] = [];
  const firstRuns: NodeJS.Timeout[] = [];
  for (const job of jobs) {
    let running = false;
    const tick = () => {
      if (running) return;
      running = true;
      job
        .run()
        .catch((err: unknown) => log.error({ err, job: job.name }, 'background job failed'))
        .finally(() => {
          running = false;
        });
    };
    const every = () => {
      const timer = setInterval(tick, job.intervalMs);
      timer.unref();
      intervals.push(timer);
    };
    if (job.firstRunMs === undefined) {
      every();
      continue;
    }
    const first = setTimeout(() => {
      tick();
      every();
    }, job.firstRunMs);
    first.unref();
    firstRuns.push(first);
  }
  return {
    stop() {
      for (const timer of firstRuns) clearTimeout(timer);
      for (const timer of intervals) clearInterval(timer);
    },
  };
}
