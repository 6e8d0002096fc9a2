import { optional, parseCommand } from './args.ts';
import { wholeNumber } from './values.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig } from '../shared/config.ts';
import { openExistingStore } from './store.ts';
import { pruneOldRecords, type PrunedTable } from '../features/retention/service.ts';
import { upgradeStore } from '../runtime/upgrade.ts';

export const PRUNE_USAGE = `  prune [--days <n>]    delete now what the retention job deletes: command and event records, webhook events,
                        deliveries and attempts, console sign-in codes older than --days (RETENTION_DAYS,
                        default 180; 0 keeps everything), never a pending delivery; prints the rows deleted per
                        table as JSON
`;

/** Progress goes to stderr once a prune has run this long: then a line as each table is done, and every PROGRESS_EVERY_MS. */
const QUIET_MS = 1_000;
const PROGRESS_EVERY_MS = 5_000;

export function progressReporter(write: (line: string) => void, now: () => number = Date.now) {
  const start = now();
  let lastLine = start;
  return (table: PrunedTable, deleted: number, done: boolean) => {
    const at = now();
    if (at - start < QUIET_MS) return;
    if (!done && at - lastLine < PROGRESS_EVERY_MS) return;
    lastLine = at;
    write(`prune: ${table}: ${deleted} deleted${done ? ', done' : ' so far'} (${((at - start) / 1000).toFixed(1)} s)\n`);
  };
}

/** `prune [--days <n>]`: on the configured database (migrated first); JSON on stdout, progress on stderr. */
export async function prune(args: readonly string[]): Promise<number> {
  const { values, overrides } = parseCommand('prune', args, { options: { days: optional(wholeNumber({ max: 36_500 })) } });
  const config = loadConfig(process.env, overrides);
  const store = openExistingStore(config.databaseUrl, overrides);
  try {
    await upgradeStore(store);
    const result = await pruneOldRecords((job) => store.write(job), systemClock, {
      retentionDays: values.days ?? config.retentionDays,
      onBatch: progressReporter((line) => process.stderr.write(line)),
    });
    process.stdout.write(`${JSON.stringify({ deleted: result }, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
