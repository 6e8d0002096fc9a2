/**
 * docs/BENCHMARKS.md: how to run and read the benchmark (sizes, rates, durations and targets from the code, so the
 * numbers cannot drift), the results table of the newest full run of each store, then each run's detail.
 */
import { DESIGN } from './benchmarks-design.ts';
import { HISTORY, MADE_OF, READING, RETIRED } from './benchmarks-text.ts';
import { CYCLE_HOLD_MS, OPEN_LEVELS, STREAM_NAMES } from './open/scenario.ts';
import { OPEN_LEVEL_NAMES, OPEN_PHASE_NAMES } from './options.ts';
import { PROFILES, type Profile } from './profiles.ts';
import { latestRecord, runMarkdown } from './report.ts';
import { NO_RUN_YET, resultsSummary } from './results-summary.ts';
import { NOTICE_DECISIONS } from './notice-scenarios.ts';
import { SCENARIO_NAMES } from './scenarios.ts';
import { markdownTable } from './tables.ts';
import { requestFilesSection } from './trace-doc.ts';
import { LATENCY_CONNECTIONS, LATENCY_SCENARIOS, TARGET_ROWS, type StoreName } from './targets.ts';
import { DELIVERY_RATE_TARGET, EVENT_TO_DELIVERY_P99_TARGET_MS } from './webhooks.ts';
import { SIGNATURE_CHECKS, SIGNED_PER_PHASE } from './discord-scenarios.ts';

/** `a`, `b` and `c`. */
function codeList(names: readonly string[]): string {
  const quoted = names.map((name) => `\`${name}\``);
  return quoted.length < 2 ? quoted.join('') : `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

const STORE_LABEL: Record<StoreName, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const n = (value: number) => value.toLocaleString('en-US');

/** Seconds of load of the open-loop scenario: settle, idle, and each level's phases (every stream alone, the mix). */
export function openSeconds(profile: Profile): number {
  const o = profile.open;
  return o.settleSeconds + o.idleSeconds + OPEN_LEVELS.length * (STREAM_NAMES.length + 1) * (o.warmupSeconds + o.phaseSeconds);
}

/** Seconds of load of the closed-loop scenarios (autocannon phases), without setup, the cold reads and the drain. */
export function closedSeconds(profile: Profile): number {
  const closed = SCENARIO_NAMES.filter((s) => s !== 'open' && s !== 'cold-leaderboard').length;
  return closed * (profile.warmupSeconds + profile.durationSeconds) + LATENCY_SCENARIOS.length * Math.max(1, profile.durationSeconds / 2);
}

const minutes = (seconds: number) => `${(seconds / 60).toFixed(1)} minutes`;

function intro(): string {
  const full = PROFILES.full;
  const quick = PROFILES.quick;
  const open = full.open;
  return `# Benchmarks

This file is written by \`npm run bench\` (bench/benchmarks-doc.ts): it is rebuilt after every full run from the
newest full result of each store in [\`bench/results/\`](../bench/results/), or on its own with
\`npm run bench -- --write-doc\`. Edit the generator, not this file.

## How to run

\`\`\`sh
npm run bench                          # full run on SQLite: every scenario, ${minutes(closedSeconds(full) + openSeconds(full))} of load
npm run bench -- --store postgres      # the same on PostgreSQL, after generating its dataset
npm run bench -- --only open           # the open-loop scenario (and the /health baseline): ${minutes(openSeconds(full) + full.warmupSeconds + full.durationSeconds)} of load
npm run bench -- --quick               # smoke run: small data, short phases, SQLite and PostgreSQL (CI: --store sqlite)
npm run bench -- --compare <other checkout>/bin/workspace-gateway.js   # A/B of builds, interleaved
\`\`\`

Besides the load, a run prepares its data (SQLite: a copy of the cached ${n(full.big.shifts)}-shift dataset, a few
seconds once it is cached; PostgreSQL: the dataset generated into a fresh schema, one to three minutes), starts the
server and the active shifts, and checks a sample of each scenario.

The script (run from source by Node's type stripping, like the service) starts the real server as a separate
process: \`node bin/workspace-gateway.js serve --port <free> --host 127.0.0.1 --database-url <url>\` with
\`LOG_LEVEL=warn\`, \`SHIFT_TIMEOUT_SECONDS=86400\` and \`RATE_LIMIT_MAX=1000000000\` (the per-key rate limiter
runs, in memory, with a limit no scenario reaches). Before measuring a scenario it checks one response: the status,
the body against the OpenAPI document the server serves, and what the data must say (positions and order of
leaderboard pages, the summary's current week equal to the week leaderboard's total, per-staff month totals equal
to the month leaderboard's, an idempotent replay of a heartbeat, start then stop of a shift). At the end the server
is stopped with SIGTERM.

The run fails (exit code 1, with the failures listed at the end) when a scenario does not answer correctly, when
any request under load errs or answers other than expected (closed loop: any non-2xx; open loop: anything but 200,
or no answer), or when the server does not exit cleanly. Speed never fails it: the targets are reported as
pass/fail.

| option | meaning |
|---|---|
| \`--store sqlite\\|postgres\\|all\` | default \`sqlite\`; with \`--quick\` \`all\` (PostgreSQL is then skipped with a warning when no server answers, except under \`CI=true\`, where that fails the run) |
| \`--quick\` | ${n(quick.big.staff)} staff, ${n(quick.big.shifts)} shifts and ${n(quick.submissions)} submissions, ${quick.small.count} small workspaces, ${quick.durationSeconds} s per closed-loop scenario, the open loop ${quick.open.warmupSeconds + quick.open.phaseSeconds} s per phase (${openSeconds(quick).toFixed(0)} s in all): checks correctness, asserts no speed |
| \`--database-url <postgres://…>\` | the PostgreSQL database the run's schema is created in (default \`BENCH_DATABASE_URL\`, \`TEST_DATABASE_URL\` or \`postgres://postgres@127.0.0.1:5432/test\`) |
| \`--fresh\` | regenerate the cached SQLite dataset |
| \`--only a,b\` | only these scenarios (and the baseline) |
| \`--phases <level:phase,...>\` | only these phases of the open-loop scenario (with \`--only open\`), e.g. \`busy:heartbeats,busy:mix\`: levels ${codeList(OPEN_LEVEL_NAMES)}, phases ${codeList(OPEN_PHASE_NAMES)} (its idle measurement runs first all the same) |
| \`--no-baseline\` | skip the baseline too, e.g. to profile one scenario alone (costs are then not given as multiples of \`/health\`'s) |
| \`--duration <s>\`, \`--connections <n>\` | measured seconds per scenario and per open-loop phase; closed-loop connections |
| \`--profile\` | run the server with \`--cpu-prof\` and print a summary of the profile (also \`node bench/profile-summary.ts <file>\`) |
| \`--server-bin <path>\` | run another build's \`bin/workspace-gateway.js\` |
| \`--compare <path>[,<path>...]\` | run the scenarios on this checkout's build (or \`--server-bin\`'s), A, and on each build listed, B, C, ..., interleaved A, B, C, A, B, C on one database, and print CPU per operation of each run side by side with each build's ratio of means over A's (several throwaway builds, each without one technique, share one dataset this way) |
| \`--rounds <n>\` | rounds of \`--compare\` (default 2) |
| \`--no-pin\` | let the load generator run on every CPU (by default it is held on the last one while measuring) |
| \`--keep\` | keep the run's database: the SQLite file in the run directory, or the PostgreSQL schema |
| \`--write-doc\` | only rewrite this file from the newest full results in \`bench/results/\` |

Results: a full run with default options writes \`bench/results/<store>-<timestamp>.json\` and rebuilds this file.
Quick runs, and runs with \`--only\`, \`--phases\`, \`--no-baseline\`, \`--duration\`, \`--connections\`, \`--server-bin\`,
\`--compare\` or \`--no-pin\`, are exploratory: they write their JSON and a Markdown report into their temporary run
directory (printed at the end) and leave \`bench/results/\` and this file alone.

## What is measured

**Cost per operation.** Over each measured phase, the CPU time the gateway spent (its process, every thread: the
event loop, the background thread of the SQLite checkpoints and the webhook sends, Node's thread pool;
\`utime + stime\` of \`/proc/<pid>/stat\`) and, on PostgreSQL, the database server's (every process of the
cluster: the sum of \`utime + stime\` over the postmaster and its live children plus the postmaster's
\`cutime + cstime\`, which holds the backends that exited), divided by the operations served in the phase.
An operation is a request, except a start + stop cycle (two requests) and a batch heartbeat, whose cost is
also given per shift (a batch of 50 is 50 shifts). Each cost is also given as a multiple of \`GET /health\`'s
in the same run (\`x /health\`). Costs are in µs of CPU; a phase's CPU % is its CPU time over its wall time
(100 = one core).

**The idle cost**: the CPU per second of wall time with no requests at all, the background jobs running (the
timeout sweep, the webhook dispatcher, the SQLite checkpoints), measured for ${open.idleSeconds} s after ${open.settleSeconds} s of
quiet at the start of the open-loop scenario.

**Latency at fixed arrival rates (\`open\`).** Each stream sends on a fixed timetable (its operations evenly
spaced at its rate), never waiting for answers: node's http client with a keep-alive agent and a socket limit no
phase reaches, so a slow answer never delays the next send. A request's latency runs from the instant it was
**due**, so a request held back behind a stalled event loop (the gateway's, or the generator's own) is counted
with its delay, not left out. Four streams, and a reference:

| stream | each operation |
|---|---|
| \`health\` | \`GET /health\` at the heartbeats' rate, alone only (never in the mix): what waking the gateway for an empty request costs at that rate, against which a heartbeat's cost at the rate can be set (the saturated \`baseline\` runs its requests back to back, which a fixed rate does not) |
| \`heartbeats\` | \`POST /v1/activity/shifts/{id}/heartbeat\`, the active shifts in turn, a unique \`Idempotency-Key\` each |
| \`batches\` | \`POST /v1/activity/shifts/heartbeats\` with the active shifts of one game server (50 with the full dataset) |
| \`cycles\` | \`POST …/shifts/start\` for a staff member no other stream uses, then \`POST …/shifts/{id}/stop\` due ${CYCLE_HOLD_MS} ms later (sent when the start answers, if later; its latency still counts from when it was due) |
| \`reads\` | in turn: week leaderboard page 1, the summary (\`/me/summary\`) of a random staff member, a random staff member's month (\`/staff/{gameUserId}?period=month\`); each reported on its own row |

${markdownTable(
    ['level', ...STREAM_NAMES.map((s) => `${s} /s`)],
    OPEN_LEVELS.map((level) => [level.name, ...STREAM_NAMES.map((s) => n(level.rates[s]))]),
    (c) => c > 0,
  )}

At each level the reference runs first, then each stream alone, then all four at once ("mix"): ${open.warmupSeconds} s unmeasured, then ${open.phaseSeconds} s
measured, for p50, p99, p99.9 and the maximum of every stream and request kind (p99.9 is the largest sample when a
row has fewer than 1,000). Every answer is checked for its status (200), and the run fails on any other or on none.
Each phase also reports the gateway's event-loop delay (p99 and max), the CPU of the gateway and the database (and
for a stream alone, its cost per operation; the mix's CPU is shared, so it is set beside the sum of the streams'
alone), how late the generator sent its requests (send lag), its own event-loop delay and CPU, and the sockets
it opened.

**Event-loop delay**: \`perf_hooks.monitorEventLoopDelay\` sampled inside the server process (a probe module the
benchmark preloads with \`--import\` and reads over a Unix socket; the product has no such endpoint),
as how late a timer repeating every 10 ms ran (its interval taken off).

**Closed-loop scenarios**: ${full.warmupSeconds} s unmeasured, then ${full.durationSeconds} s measured, with ${full.connections} connections that always
have a request waiting: the gateway saturated, so its cost per operation is the lowest it gets. The read scenarios
with a latency target (\`summary\`, \`staff-month\`, \`leaderboard-week\`, \`leaderboard-week-deep\`, \`queue\`,
\`submission\`) run again for half as long at ${LATENCY_CONNECTIONS} connections, where p50 is mostly the request's own time.
\`start\` is the exception to the fixed duration: each start needs a staff member without an active shift, so it
makes one start per staff member of the start/stop pool (a quarter unmeasured, the rest measured) and stops them
all afterwards, unmeasured. \`notice-decide\` is the other: a notice is approved once, so its setup asks for
${n(NOTICE_DECISIONS.full)} pending notices (${full.warmupSeconds + full.durationSeconds} s at about 3,000 approvals a second) and each phase approves its share of them
(a quarter unmeasured, the rest measured).

| scenario | what each request does |
|---|---|
| \`baseline\` | \`GET /health\`: the same server, plugins and hooks, no database: the unit costs are compared with |
| \`integration\` | \`GET /v1/integration\`, with the keys of all ${full.small.count + 1} workspaces in turn |
| \`summary\` | \`GET /v1/activity/me/summary\` with the chat headers of a random staff member |
| \`staff-month\` | \`GET /v1/activity/staff/{gameUserId}?period=month\` for a random staff member |
| \`leaderboard-week\` | \`GET /v1/activity/leaderboard?period=week\`, page 1 (25 entries) |
| \`leaderboard-week-deep\` | the same at the cursor after position ${n(full.deepPosition)} (found by following \`nextCursor\` in setup) |
| \`leaderboard-month\` | \`GET /v1/activity/leaderboard?period=month\`, page 1 (the heaviest report) |
| \`roster\` | \`GET /v1/staff?limit=25\` with a member's dashboard token: the active staff by name, page 1, each with its week's figures and shift under way (to cost at most a \`leaderboard-week\` page of the same size) |
| \`discord-activity\` | \`POST /v1/discord/applications/{applicationId}/interactions\`: Discord's \`/activity\` command of a random staff member, signed with the Ed25519 key of an application made for the run (${n(SIGNED_PER_PHASE)} signed per phase by the load generator, random staff drawn as \`summary\` draws them); compared with \`summary\`, the API read it wraps, plus the signature check alone, measured in the load generator with the gateway's verifier over ${n(SIGNATURE_CHECKS)} checks |
| \`queue\` | \`GET /v1/applications/submissions\` with a reviewer's dashboard token: the default filter (pending), page 1 (25 items), among the big workspace's ${n(full.submissions)} submissions |
| \`submission\` | \`GET /v1/applications/submissions/{submissionId}\` for a random one of the ${n(1000)} newest submissions with a recorded review history (20 answers each) |
| \`heartbeat\` | \`POST /v1/activity/shifts/{id}/heartbeat\` round-robin over ${n(full.heartbeatShifts)} active shifts (started in setup, one per staff member), a unique \`Idempotency-Key\` per request |
| \`heartbeat-batch\` | \`POST /v1/activity/shifts/heartbeats\`, the active shifts of one game server per request |
| \`start-stop\` | per connection: start a shift for a staff member no other connection holds, then stop it; unique keys (cost per cycle) |
| \`start\` | \`POST /v1/activity/shifts/start\` alone, each staff member of the start/stop pool once; unique keys (cost per start: the reference for \`intake\`) |
| \`intake\` | \`POST /v1/applications/forms/{formId}/submissions\` with all 20 questions answered, a new applicant and a unique \`Idempotency-Key\` each (cost per submission) |
| \`cold-leaderboard\` | a start and a stop (which move the activity version), then week leaderboard page 1, timed; one at a time (cost per start, stop and read) |
| \`notice-request\` | \`POST /v1/staff/me/inactivity-notices\` with the chat bot's key acting as a random active staff member (both chat headers), a whole day of their own after every notice in the database, and a unique \`Idempotency-Key\` each (cost per notice) |
| \`notice-decide\` | \`POST /v1/staff/inactivity-notices/{noticeId}/approve\` with a manager's dashboard token, each pending notice asked for in setup once; unique keys (cost per approval) |
| \`open\` | the open-loop scenario above |
| \`start-stop-webhooks\` | \`start-stop\` with one endpoint subscribed to every event, delivered over HTTPS to a receiver in the load generator (a certificate made for the run; kept-alive connections, or with \`--receiver-closes\` a TLS handshake per delivery) |
| \`webhook-delivery\` | a backlog of outbox deliveries drained into that receiver (deliveries per second, CPU per delivery), then \`GET /health\` while it idles |
`;
}

function targets(): string {
  const rows = [
    ...TARGET_ROWS.map((row) => [row.text, row.limit('sqlite'), row.limit('postgres')]),
    ['webhook event-to-delivery p99 (`start-stop-webhooks`)', `< ${n(EVENT_TO_DELIVERY_P99_TARGET_MS)} ms`, `< ${n(EVENT_TO_DELIVERY_P99_TARGET_MS)} ms`],
    ['webhook deliveries from one instance (`webhook-delivery`)', `>= ${n(DELIVERY_RATE_TARGET)}/s`, `>= ${n(DELIVERY_RATE_TARGET)}/s`],
  ];
  return `## Targets

Recorded, not yet required: a run prints each with its measured value and pass or fail, and never fails on one.
CPU costs include the database's on PostgreSQL; "busy" is the rate of the busy level above, each stream alone.
The p50 latencies, the cold page's and the webhooks' were set before and are kept: they are latencies and rates
of their own, not shares of a saturated event loop.

${markdownTable(['target', 'SQLite', 'PostgreSQL'], rows, () => false)}
`;
}

export function benchmarksDocument(resultsDir: string, resultsPrefix: string): string {
  const latest = {
    sqlite: latestRecord(resultsDir, 'sqlite'),
    postgres: latestRecord(resultsDir, 'postgres'),
  };
  const sections: string[] = [intro(), RETIRED, targets()];
  sections.push(
    '## Results',
    '',
    'The newest full run of each store (`npm run bench`, `npm run bench -- --store postgres`), written here by the run.',
    '',
    resultsSummary({ sqlite: latest.sqlite?.record ?? null, postgres: latest.postgres?.record ?? null }),
    '',
  );
  for (const store of ['sqlite', 'postgres'] as const) {
    const run = latest[store];
    sections.push(`## Results: ${STORE_LABEL[store]}`, '');
    sections.push(run ? runMarkdown(run.record, `${resultsPrefix}/${run.file}`) : NO_RUN_YET);
    sections.push('');
  }
  sections.push(dataSet(), READING, MADE_OF, HISTORY, DESIGN, requestFilesSection());
  return `${sections.join('\n').trimEnd()}\n`;
}

function dataSet(): string {
  const full = PROFILES.full;
  return `## Data set

- One big workspace (Europe/Berlin): ${n(full.big.staff)} staff in 8 departments (about 4% in none) with ranks,
  about 2% inactive (they stopped working 1 to 10 months before), 1% who never worked, 3% with their own weekly
  requirement, 4% with an inactivity notice around now (3% approved: the summary and the leaderboards lower
  their requirement); a connected chat guild; one approved application with one allowed universe, a live API key
  with the activity, \`staff:read\` and applications scopes, and the chat bot's live key (\`staff:read\` and
  \`staff:write\`); two dashboard members, a reviewer and a manager who decides notices.
- In the big workspace, one open application form of 20 questions of every type (texts, numbers, yes/no, one and
  several choices), and ${n(full.submissions)} submissions to it over the ${full.historyDays} days, each with every
  question answered and its own applicant: most decided (about a third accepted, the rest rejected); of the last 10
  days' submissions nine in ten still pending (about 2.5% of all: \`submitted\`, or \`under_review\` when reviewed);
  one in ten with a recorded review history (submitted, marked under review, a review update, the decision), its
  commands and events written with it. Submissions are inserted 1,000 rows per INSERT, 5,000 per transaction.
- ${n(full.big.shifts)} completed shifts over the ${full.historyDays} days before the generation instant: 15 to 240
  minutes each (mean about 90), more at weekends and in the evening, growing over the year, and shared among
  staff with a skew (the k-th most active works about (k + 50)^-0.5: about 10x between the most and the least
  active). End reasons mostly manual, some player_left, server_shutdown and heartbeat_timeout.
- ${full.small.count} small workspaces of ${full.small.staff} staff and ${n(full.small.shifts)} shifts each, in five
  time zones, each with its own application and key.
- Configuration goes through \`applyProvisioning\` (keys imported with known \`secret\`s). Shifts are bulk-inserted
  with Kysely, one transaction per 10,000 rows (SQLite: 1,000-row multi-row INSERTs; PostgreSQL:
  \`INSERT … SELECT FROM unnest(…)\`), with the shift table's secondary indexes dropped during the load and
  rebuilt after it from their own DDL read back from the catalog, so the schema ends exactly as migrated.
- Everything is drawn from a fixed seed: two runs of one generator version measure the same data (shifted in time).
- The full SQLite dataset is generated once into \`bench/.cache/\` (ignored by git; keyed by the generator
  version, the profile and the seed; regenerated when older than 3 days, so the current week and month hold
  history, or with \`--fresh\`) and copied for each run, since the run writes to it. PostgreSQL data is generated
  for each run into a fresh schema (\`wsg_bench_<run>\`) of the given database, vacuumed and analyzed (as
  autovacuum would soon after the load), and dropped at the end.
`;
}
