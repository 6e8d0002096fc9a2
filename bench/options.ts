import { OPEN_LEVELS, STREAM_NAMES } from './open/scenario.ts';
import type { ProfileName } from './profiles.ts';
import type { StoreName } from './targets.ts';

/** What `--phases` takes: an open-loop level and one of its phases (a stream alone, or the mix). */
export const OPEN_LEVEL_NAMES: readonly string[] = OPEN_LEVELS.map((level) => level.name);
export const OPEN_PHASE_NAMES: readonly string[] = [...STREAM_NAMES, 'mix'];

export const USAGE = `Usage: npm run bench -- [options]

  --store sqlite|postgres|all   store(s) to run on (default sqlite; with --quick: all)
  --quick                       small data, short phases: checks every scenario, asserts no speed
                                (the open-loop scenario a few seconds per level)
  --database-url <url>          PostgreSQL database for the run's schema
                                (default BENCH_DATABASE_URL, TEST_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test)
  --fresh                       regenerate the cached SQLite dataset
  --only <a,b,...>              run only these scenarios (and the baseline), e.g. --only open
  --no-baseline                 skip the baseline too (e.g. to profile one scenario alone)
  --phases <level:phase,...>    only these phases of the open-loop scenario, e.g. busy:heartbeats,busy:mix
                                (levels ${OPEN_LEVEL_NAMES.join(', ')}; phases ${OPEN_PHASE_NAMES.join(', ')})
  --duration <seconds>          measured seconds per scenario (and per phase of the open-loop scenario)
  --connections <n>             connections per scenario (default 32)
  --profile                     run the server with --cpu-prof and summarize the profile
  --server-bin <path>           another build's bin/workspace-gateway.js, e.g. for an A/B comparison
  --compare <path>[,<path>...]  run the scenarios on this checkout's build (or --server-bin's), A, and on each
                                build listed, B, C, ..., interleaved (A, B, C, A, B, C) on one database, and print
                                CPU per operation side by side with each build's ratio over A
  --rounds <n>                  rounds of --compare (default 2)
  --receiver-closes             the webhook scenarios' receiver (HTTPS) closes each connection after its answer,
                                so every delivery opens a connection and makes a TLS handshake
  --no-pin                      let the load generator run on every CPU (by default it is held on the last one)
  --keep                        keep the run's database (SQLite file or PostgreSQL schema)
  --write-doc                   only rewrite docs/BENCHMARKS.md from the newest full results in bench/results
  --help                        this text
`;

export interface BenchOptions {
  readonly stores: StoreName[];
  /** True when --store was left to its default (PostgreSQL is then skipped, not failed, when unreachable). */
  readonly storesDefaulted: boolean;
  readonly profile: ProfileName;
  readonly postgresUrl: string;
  readonly fresh: boolean;
  readonly only: string[] | null;
  /** The open-loop phases to run (`level:phase`), or null for all of them. */
  readonly phases: string[] | null;
  readonly baseline: boolean;
  readonly durationSeconds: number | null;
  readonly connections: number | null;
  readonly cpuProfile: boolean;
  /** The server entry point to run (default: this repository's bin/workspace-gateway.js). */
  readonly serverBin: string | null;
  /** Entry points to compare with this one, interleaved (A, B, C, A, B, C); empty when not comparing. */
  readonly compare: string[];
  /** Rounds of a comparison. */
  readonly rounds: number;
  readonly writeDoc: boolean;
  /** The webhook receiver closes each connection after answering: a TLS handshake per delivery. */
  readonly receiverCloses: boolean;
  /** Hold the load generator on one CPU while measuring (see affinity.ts). */
  readonly pin: boolean;
  readonly keep: boolean;
  readonly help: boolean;
}

function isOpenPhase(text: string): boolean {
  const [level, phase, ...rest] = text.split(':');
  return rest.length === 0 && level !== undefined && phase !== undefined && OPEN_LEVEL_NAMES.includes(level) && OPEN_PHASE_NAMES.includes(phase);
}

/** One argument of a command line: the flag, and its value (`--flag value` or `--flag=value`) when asked for. */
export interface Flag {
  /** The argument as written. */
  readonly arg: string;
  readonly flag: string;
  value(): string;
}

/** The arguments of a benchmark command, flag by flag; `value()` takes the next argument unless the flag has `=`. */
export function* readFlags(argv: readonly string[]): Generator<Flag> {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const inline = eq > 0 ? arg.slice(eq + 1) : undefined;
    yield {
      arg,
      flag,
      value: () => {
        if (inline !== undefined) return inline;
        i += 1;
        const next = argv[i];
        if (next === undefined) throw new OptionsError(`${flag} needs a value`);
        return next;
      },
    };
  }
}

export class OptionsError extends Error {
  override name = 'OptionsError';
}

function positive(name: string, raw: string | undefined): number {
  const value = Number(raw);
  if (raw === undefined || !Number.isFinite(value) || value <= 0) throw new OptionsError(`${name} needs a positive number`);
  return value;
}

export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  let store: string | undefined;
  let quick = false;
  let postgresUrl = env.BENCH_DATABASE_URL ?? env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  let fresh = false;
  let only: string[] | null = null;
  let phases: string[] | null = null;
  let baseline = true;
  let durationSeconds: number | null = null;
  let connections: number | null = null;
  let cpuProfile = false;
  let serverBin: string | null = null;
  let compare: string[] = [];
  let rounds = 2;
  let writeDoc = false;
  let receiverCloses = false;
  let pin = true;
  let keep = false;
  let help = false;
  for (const { arg, flag, value } of readFlags(argv)) {
    switch (flag) {
      case '--store':
        store = value();
        break;
      case '--quick':
        quick = true;
        break;
      case '--database-url':
        postgresUrl = value();
        break;
      case '--fresh':
        fresh = true;
        break;
      case '--only':
        only = value()
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        break;
      case '--phases':
        phases = value()
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
        for (const phase of phases) {
          if (!isOpenPhase(phase)) {
            throw new OptionsError(`--phases: "${phase}" is not level:phase (${OPEN_LEVEL_NAMES.join('|')} : ${OPEN_PHASE_NAMES.join('|')})`);
          }
        }
        break;
      case '--no-baseline':
        baseline = false;
        break;
      case '--duration':
        durationSeconds = positive('--duration', value());
        break;
      case '--connections':
        connections = Math.floor(positive('--connections', value()));
        break;
      case '--profile':
        cpuProfile = true;
        break;
      case '--server-bin':
        serverBin = value();
        break;
      case '--compare':
        compare = value()
          .split(',')
          .map((path) => path.trim())
          .filter((path) => path !== '');
        if (compare.length === 0) throw new OptionsError('--compare needs at least one path');
        break;
      case '--rounds':
        rounds = Math.floor(positive('--rounds', value()));
        break;
      case '--write-doc':
        writeDoc = true;
        break;
      case '--receiver-closes':
        receiverCloses = true;
        break;
      case '--no-pin':
        pin = false;
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
  const storesDefaulted = store === undefined;
  const chosen = store ?? (quick ? 'all' : 'sqlite');
  let stores: StoreName[];
  if (chosen === 'all') stores = ['sqlite', 'postgres'];
  else if (chosen === 'sqlite' || chosen === 'postgres') stores = [chosen];
  else throw new OptionsError(`--store must be sqlite, postgres or all, got "${chosen}"`);
  if (!/^postgres(ql)?:\/\//.test(postgresUrl)) throw new OptionsError('--database-url must be a postgres:// URL');
  return {
    stores,
    storesDefaulted,
    profile: quick ? 'quick' : 'full',
    postgresUrl,
    fresh,
    only,
    phases,
    baseline,
    durationSeconds,
    connections,
    cpuProfile,
    serverBin,
    compare,
    rounds,
    writeDoc,
    receiverCloses,
    pin,
    keep,
    help,
  };
}
