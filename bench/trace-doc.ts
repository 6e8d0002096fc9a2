/** The section of docs/BENCHMARKS.md on `npm run bench:trace` (trace.ts), its defaults read from the code. */
import { TRACE_DEFAULTS, TRACE_WEBHOOK_POLL_INTERVAL_MS } from './trace-options.ts';
import { KIND_NAMES, REFERENCE_KIND } from './trace-requests.ts';

export function requestFilesSection(): string {
  const { repeats, warmup, waitMs } = TRACE_DEFAULTS;
  return `## Files a request runs

\`\`\`sh
npm run bench:trace                                  # both stores, every request kind, about a minute
npm run bench:trace -- --store sqlite --verbose      # one store, the file list of every kind
npm run bench:trace -- --kinds heartbeat,intake      # some kinds (${REFERENCE_KIND} is always measured)
\`\`\`

How many files of \`src/\` one request runs code in, and which. Each store gets a small dataset of its own (a
SQLite file in a temporary directory; a fresh schema of the PostgreSQL database) and the real gateway, started as
the benchmark starts it, with a second probe preloaded (bench/coverage-probe.ts) that runs V8's precise coverage
(function call counts) from before the gateway's first module loads. The gateway serves ${warmup} requests of each
kind first, so every lazy path (compiled validators, prepared statements, caches) has run. Then, ${repeats} times per
kind: a window of ${waitMs} ms without requests (the files background work runs), and a window of ${waitMs} ms that
starts with one request and holds its tail; the request's files are those the second window ran less those the
first did. A file counts when at least one of its functions ran (a module's top level runs once, when it loads).
Only the main thread is measured: the background thread's work (SQLite checkpoints, webhook sends) is not. The
webhook dispatcher polls every ${TRACE_WEBHOOK_POLL_INTERVAL_MS / 1000} s instead of every second, so its poll does not fall into some windows and
not others.

Kinds: ${KIND_NAMES.map((kind) => `\`${kind}\``).join(', ')} (a heartbeat on a started shift with a new
\`Idempotency-Key\` and \`recordedAt\`; a start, and a stop, of another staff member's shift; a submission to the
application form with the API key; the week leaderboard's first page; the chat summary). Per store, a table gives
for each kind the files of each repeat (lowest-highest), those in every repeat, those in any, and those beyond
\`GET /health\` (in every repeat of the kind and in no repeat of \`/health\`); then the files of heartbeat and
intake (of every kind with \`--verbose\`), those beyond \`/health\` marked \`+\`. A file in some repeats only is work
that fell into one window and not another, or a first request after a write (the leaderboard's first read after
the stops rebuilds its cached ranking). The result is written to \`bench/results/request-files-<timestamp>.json\`
for comparison between builds; this file does not read it.
`;
}
