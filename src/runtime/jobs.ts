import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../shared/clock.ts';
import type { Config } from '../shared/config.ts';
import type { Store } from '../db/connect.ts';
import { purgeExpiredRecords } from '../idempotency/index.ts';
import { sweepIntervalMs, sweepTimedOutShifts } from '../features/activity/shifts/sweep.ts';

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
  run(): Promise<unknown>;
}

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
  const timers = jobs.map((job) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      job
        .run()
        .catch((err: unknown) => log.error({ err, job: job.name }, 'background job failed'))
        .finally(() => {
          running = false;
        });
    }, job.intervalMs);
    timer.unref();
    return timer;
  });
  return {
    stop() {
      for (const timer of timers) clearInterval(timer);
    },
  };
}
