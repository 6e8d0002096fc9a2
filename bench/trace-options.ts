/** The options of `npm run bench:trace` (trace.ts). */
import { OptionsError, readFlags } from './options.ts';
import { KIND_NAMES, type KindName } from './trace-requests.ts';
import type { StoreName } from './targets.ts';

/** What a run does unless told otherwise. */
export const TRACE_DEFAULTS = { repeats: 3, warmup: 300, waitMs: 300 } as const;

/**
 * The webhook dispatcher polls the outbox every second by default (src/shared/config.ts): that poll would fall into some
 * windows and not others. Polling once a minute (the longest allowed) leaves the windows quiet; a write still
 * wakes the dispatcher when it commits deliveries, and that counts as the request's.
 */
export const TRACE_WEBHOOK_POLL_INTERVAL_MS = 60_000;

export const TRACE_USAGE = `Usage: npm run bench:trace -- [options]

Which files of src/ one request runs code in (V8 precise coverage inside the gateway, idle work taken off),
and on PostgreSQL the statements and transactions it sends.

  --store sqlite|postgres|all   store(s) to run on (default all; PostgreSQL is skipped with a warning when no
                                server answers, unless --store names it or CI=true)
  --database-url <url>          PostgreSQL database for the run's schema
                                (default BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
  --kinds <a,b,...>             request kinds to measure (default all: ${KIND_NAMES.join(', ')});
                                health, the reference, is always measured
  --repeats <n>                 measurements of each kind (default ${TRACE_DEFAULTS.repeats})
  --warmup <n>                  requests of each kind before measuring (default ${TRACE_DEFAULTS.warmup})
  --wait <ms>                   length of each window, idle and after the request (default ${TRACE_DEFAULTS.waitMs})
  --verbose                     list the files of every kind (by default those of heartbeat and intake)
  --statements                  list the PostgreSQL statements of every kind (its first repeat), in order
  --keep                        keep the run's database and the server's log
  --help                        this text
`;

export interface TraceCliOptions {
  readonly stores: StoreName[];
  readonly storesDefaulted: boolean;
  readonly postgresUrl: string;
  readonly kinds: KindName[];
  readonly repeats: number;
  readonly warmup: number;
  readonly waitMs: number;
  readonly verbose: boolean;
  readonly statements: boolean;
  readonly keep: boolean;
  readonly help: boolean;
}

function count(name: string, raw: string, least: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) throw new OptionsError(`${name} needs a whole number of at least ${least}`);
  return value;
}

function isKind(name: string): name is KindName {
  return (KIND_NAMES as readonly string[]).includes(name);
}

export function parseTraceOptions(argv: readonly string[], env: NodeJS.ProcessEnv): TraceCliOptions {
  let store: string | undefined;
  let postgresUrl = env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  let kinds: KindName[] = [...KIND_NAMES];
  let repeats: number = TRACE_DEFAULTS.repeats;
  let warmup: number = TRACE_DEFAULTS.warmup;
  let waitMs: number = TRACE_DEFAULTS.waitMs;
  let verbose = false;
  let statements = false;
  let keep = false;
  let help = false;
  for (const { arg, flag, value } of readFlags(argv)) {
    switch (flag) {
      case '--store':
        store = value();
        break;
      case '--database-url':
        postgresUrl = value();
        break;
      case '--kinds': {
        const names = value()
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        const unknown = names.filter((name) => !isKind(name));
        if (unknown.length > 0 || names.length === 0) {
          throw new OptionsError(`--kinds: unknown kind(s) ${unknown.join(', ') || '(none given)'}; known: ${KIND_NAMES.join(', ')}`);
        }
        kinds = names.filter(isKind);
        break;
      }
      case '--repeats':
        repeats = count('--repeats', value(), 1);
        break;
      case '--warmup':
        warmup = count('--warmup', value(), 0);
        break;
      case '--wait':
        waitMs = count('--wait', value(), 1);
        break;
      case '--verbose':
        verbose = true;
        break;
      case '--statements':
        statements = true;
        break;
      case '--keep':
        keep = true;
        break;
      case '--help':
      case '-h':
        help = true;
        break;
      default:
        throw new OptionsError(`unknown option "${arg}"`);
    }
  }
  const chosen = store ?? 'all';
  let stores: StoreName[];
  if (chosen === 'all') stores = ['sqlite', 'postgres'];
  else if (chosen === 'sqlite' || chosen === 'postgres') stores = [chosen];
  else throw new OptionsError(`--store must be sqlite, postgres or all, got "${chosen}"`);
  if (!/^postgres(ql)?:\/\//.test(postgresUrl)) throw new OptionsError('--database-url must be a postgres:// URL');
  return { stores, storesDefaulted: store === undefined, postgresUrl, kinds, repeats, warmup, waitMs, verbose, statements, keep, help };
}
