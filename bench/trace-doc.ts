/** The section of docs/BENCHMARKS.md on `npm run bench:trace` (trace.ts), its defaults read from the code. */
import { TRACE_DEFAULTS, TRACE_WEBHOOK_POLL_INTERVAL_MS } from './trace-options.ts';
import { KIND_NAMES, REFERENCE_KIND } from './trace-requests.ts';
import { HEARTBEAT_BATCH_SIZE } from './workload.ts';

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
\`Idempotency-Key\` and \`recordedAt\`; a batch heartbeat of ${HEARTBEAT_BATCH_SIZE} started shifts of one game server; a start, and a
stop, of another staff member's shift; a submission to the application form with the API key; a reviewer's
rejection of a new submission, with a dashboard token; an inactivity notice asked for through the bot's key, a day of its
own; a manager's approval of a new pending notice; the week leaderboard's first page; the chat summary; a page of 25
of the roster with a member's dashboard token). Per store, a table gives
for each kind the files of each repeat (lowest-highest), those in every repeat, those in any, and those beyond
\`GET /health\` (in every repeat of the kind and in no repeat of \`/health\`); then the files of heartbeat and
intake (of every kind with \`--verbose\`), those beyond \`/health\` marked \`+\`. A file in some repeats only is work
that fell into one window and not another, or a first request after a write (the leaderboard's first read after
the stops rebuilds its cached ranking). The result is written to \`bench/results/request-files-<timestamp>.json\`
for comparison between builds; this file does not read it.

${STATEMENTS}`;
}

interface StatementRow {
  readonly kind: string;
  /** Statements and transactions. */
  readonly before: readonly [number, number];
  readonly after: readonly [number, number];
}

const STATEMENT_ROWS: readonly StatementRow[] = [
  { kind: '`heartbeat`', before: [1, 1], after: [1, 1] },
  { kind: '`batch` (50 shifts)', before: [9, 2], after: [6, 1] },
  { kind: '`start`', before: [11, 2], after: [8, 1] },
  { kind: '`stop`', before: [13, 2], after: [9, 1] },
  { kind: '`intake`', before: [14, 2], after: [9, 1] },
  { kind: '`review` (a rejection)', before: [12, 2], after: [9, 2] },
  { kind: '`notice` (asking for time off)', before: [14, 2], after: [9, 1] },
  { kind: '`approval` (of a pending notice)', before: [14, 2], after: [10, 2] },
  { kind: '`leaderboard` (week, page 1, ranking cached)', before: [4, 4], after: [3, 3] },
  { kind: '`summary`', before: [5, 5], after: [3, 3] },
  { kind: '`roster` (page of 25, a member\'s token)', before: [6, 6], after: [3, 3] },
];

/**
 * The statements and transactions a request sends to PostgreSQL, counted by bench:trace (written here by hand from
 * its output: it changes only with the code, not with the machine).
 */
const STATEMENTS = `### Statements a request sends to PostgreSQL

\`\`\`sh
npm run bench:trace -- --store postgres --statements   # the counts, and each kind's statements in order
\`\`\`

On PostgreSQL the probe also counts what the gateway sends through the \`pg\` client (every pool of the process:
the store's and the webhook dispatcher's) in the window holding the request: a statement is one round trip to
the server (\`begin\`, \`commit\` and savepoints included), a transaction an explicit one or a statement sent
outside any. The table gives the lowest count over the repeats (a higher one is work that fell into the window:
the timeout sweep, or the leaderboard's first read after a change, which advances its cached ranking: 5 instead
of 3). Every write but the known heartbeat is one transaction: \`begin\`, the idempotency key's lock and record
(with an API key verified within the last minute, the key's credential checked in the same statement), a
savepoint, the operation, the stored result, \`commit\`. A review or an approval is two: the dashboard user's
memberships are read first.
The known heartbeat is one statement when it goes alone; heartbeats that arrive together share one (up to 64
in a statement, \`db/group-commit.ts\` \`StatementGroup\`), so under load a heartbeat sends a fraction of a statement.

| request | before: statements | transactions | after: statements | transactions |
|---|---:|---:|---:|---:|
${STATEMENT_ROWS.map((r) => `| ${r.kind} | ${r.before[0]} | ${r.before[1]} | ${r.after[0]} | ${r.after[1]} |`).join('\n')}

Before: the build before the cuts below; after: this build. What changed: an idempotent operation's savepoint is
left to the COMMIT to release (every write but the known heartbeat: one less); an API-key write uses a key verified
within the last minute and checks its credential in the statement that takes the idempotency key, instead of
looking the key up first (one less, measured below); a start inserts first and reads
the staff member's active shift only when the insert finds one; an intake reads the applicant's pending
submission and latest rejection in one statement. Measured A/B on PostgreSQL (three interleaved rounds, CPU of
the gateway and the database per operation, saturated), the cuts were within the noise of a shared 2-core
machine: start + stop 4,101 µs (median; runs 3,093 to 4,372) against 4,230 (4,081 to 4,260), a start 1,355
(963 to 1,493) against 1,240 (1,175 to 1,341), an intake 1,661 (1,435 to 1,791) against 1,874 (1,868 to 1,905),
a batch 1,868 (1,542 to 1,895) against 1,874 (1,740 to 1,967). They stay as SQL that does less, not as
techniques with a measured saving.

Time off (\`notice\`, \`approval\`; before: the build before these cuts): an approval reads the notice with its
staff member's row locked, in one statement, and its conditional update from \`pending\` also requires that no
other approved notice overlaps it; a request inserts its notice unless a pending or approved one overlaps it, in
one statement after the staff member's lock. Each looks the overlapping notice up only when refused. The lock is
taken in a statement before the check, so the check sees every notice the lock's earlier holders committed.
Measured A/B on PostgreSQL as above (the machine shared with other work): an approval 3,915 µs (median of three
rounds; runs 3,756 to 4,816) against 4,474 (4,396 to 5,115), 12% less; a request 3,595 (median of five; 3,373 to
3,835) against 3,679 (3,192 to 4,184), and in a first run of three rounds 4,352 (2,953 to 4,812) against 3,279
(3,271 to 3,563). Within the noise, or under the 15% a technique must show: kept as SQL that does less.

A roster page (\`roster/repository.ts\`, \`listRosterPage\`): the page of staff, each staff member's week bucket of
the totals, shifts without an end and approved notices in one statement, where it sent four (the page, the
totals, the notices, the live shifts); with the member's memberships and the workspace, 3 statements instead of
6. Measured against the week leaderboard page in "Measurements behind the design", "The roster page against a
leaderboard page".

The acting chat user's workspace and staff profile (\`staff/profiles.ts\`, \`findWorkspaceWithChatStaff\`): one read
where the summary, \`GET /v1/staff/me\` and a request for time off sent two statements at once; the summary sends
4 statements, a request 12 (11 with the journal's one statement below). Measured A/B on PostgreSQL against the build before the core work (three interleaved
rounds, saturated): the summary 1,407, 1,776 and 2,072 µs against 1,892, 2,023 and 2,537 (0.81x).

The journal (\`journal/journal.ts\`, \`recordOperation\`): an operation's command and event go as one statement on
PostgreSQL (\`db/dialect.ts\`, \`writeTogether\`: the command's insert as a data-modifying CTE before the event's;
the event's foreign key to its command is checked at the statement's end), so an intake, a review decision, a
request for time off and a decision on one each send one statement fewer. Measured A/B on PostgreSQL against the
build before (three interleaved rounds, saturated): an intake 1,976, 2,149 and 2,206 µs against 2,103, 2,171
and 2,116 (0.99x); a request for time off 1,934, 1,971 and 2,119 against 2,137, 2,121 and 2,101 (0.95x). Within
the noise: kept as SQL that does less.
Then the read of the workspace's enabled endpoints, which the event's webhook deliveries follow, went into the
same statement as its query (\`writeThenRead\`: the inserts as data-modifying CTEs, the read of a table neither
writes as the statement's query), one statement fewer again. Measured A/B on PostgreSQL against the build before
(two interleaved rounds, saturated): an intake 1,639 and 1,702 µs against 1,647 and 1,735 (0.99x); a request
for time off 1,407 and 1,823 against 1,578 and 1,584 (1.02x); an approval 2,028 and 2,282 against 2,485 and
2,276 (0.90x). Within the noise, or under 15%: kept as SQL that does less.

A change of the running totals (\`activity/totals/repository.ts\`, \`recordTotalsChange\`): the deltas, the
longest-shift bound and the changed staff members go to three tables and read nothing another writes, so on
PostgreSQL they are one statement (\`writeTogether\`): a stop sends 10 statements instead of 12, and every
other completion (a timeout, an import) two fewer too. Measured A/B on PostgreSQL against the build before (four interleaved
rounds, saturated): start + stop 6,855, 8,655, 8,632 and 11,305 µs against 7,258, 8,004, 10,514 and 12,100
(0.94x; both builds grow costlier round by round as the dataset's tables grow without a vacuum). Within the
noise: kept as SQL that does less.

A batch heartbeat's locks (\`activity/shifts/repository.ts\`, \`recordHeartbeats\`; \`db/dialect.ts\`,
\`inJsonListLocked\`): the listed shifts' rows were locked in id order by a statement of their own before the
update. The update now locks them itself: its list of ids is the locking select, an array PostgreSQL computes
once before the update changes a row, so every listed row is locked in id order first, in the same round trip (6
statements a batch instead of 7). Measured A/B on PostgreSQL against the build before (three
interleaved rounds, saturated): a batch 1,811, 1,696 and 1,786 µs against 1,915, 1,969 and 2,325 (0.85x; 0.90x
without the third round, in which the build before's \`GET /health\` cost 2.5x and its heartbeat 1.4x what they
cost in its other rounds).
Kept as SQL that does less; the several-instance test of batches, server stops and single stops still sees no
deadlock.

The cached key on every API-key write (\`http/write-pipeline.ts\`, \`idempotentCall\`; \`idempotency/records.ts\`,
\`takeKey\`): a start, a stop, a batch, an intake and a request for time off use a key verified within the last
minute, as the heartbeat did, and the statement that takes the idempotency key checks its credential; when it no
longer holds, nothing ran, the key is looked up and the write runs as the key now stands. One statement and one
transaction fewer each. Measured A/B against the build before, three interleaved rounds, saturated. On SQLite
(this build first in each round; the heartbeat, unchanged, as the control: 0.99x): start + stop 554, 568 and
576 µs against 620, 685 and 612 (0.89x); a batch 0.95x; an intake 0.92x; a request for time off 0.91x. On
PostgreSQL, whose costs grow round by round without a vacuum so that the build measured second in a round pays
more, two runs with either build first: start + stop 0.86x and 1.02x, a batch 0.91x and 0.97x, an intake 0.77x
and 1.09x, a request for time off 0.79x and 1.17x (this build over the other; about 0.94x in the mean of the
two orders).

The cached key on the chat bot's hot reads (\`auth/route-auth.ts\`, "A cached key confirmed"; the caller's unconfirmed key, checked as \`auth/keys/api-key.ts\` says): the summary and
the leaderboard use a key verified within the last minute, and their first statement (the workspace with the
acting staff member, or the workspace) checks its credential; when it no longer holds, the key is looked up and
the read runs again as the key now stands. One statement fewer each: 3 instead of 4. Measured A/B against the
build before, three interleaved rounds, saturated, this build first in each round: on PostgreSQL the summary
627, 638 and 619 µs against 731, 735 and 731 (0.86x), the week's leaderboard 861, 865 and 790 against 915, 927
and 971 (0.89x); on SQLite the summary 213, 210 and 211 against 233, 234 and 231 (0.91x), the leaderboard 0.97x
to 1.03x by the order of its runs (within its noise: a ranking read from the cache or computed).
`;
