/**
 * The prose of docs/BENCHMARKS.md that no run changes: why the old targets were retired, how to read the figures,
 * what the costs are made of, and an earlier comparison kept as history. benchmarks-doc.ts assembles the file.
 */

export const RETIRED = `## Why the closed-loop ratio targets were retired

The targets until now were ratios of closed-loop throughputs: a scenario's requests per second over \`GET /health\`'s,
heartbeats in the mix over heartbeats alone, start/stop with a webhook endpoint over without. They measured the
share of one event loop a stream gets, not what it costs. The gateway serves requests on one event loop, so on
about one core; the reference machine has two, and the load generator holds one of them. At 32 connections that
core is saturated whatever the build does, throughput is one over the CPU per request, and a ratio to \`/health\`
is only \`/health\`'s cost over the scenario's (about 40 µs over 120 µs for a heartbeat: 0.33), a quotient that
hides which of the two moved. In the mix, three closed loops share that core, so adding a stream lowers each stream's share by
construction: heartbeats keeping 0.8 x of their rate alone required the reads and cycles to take at most a fifth
of the core whatever they cost. A deployment is never saturated: it serves its own arrival rate and pays each
operation's cost at that rate, and its users see the latency at that rate, including the stalls that other work
causes. Measured from outside the process at fixed rates before this benchmark did it itself, a SQLite heartbeat
cost 207 µs of CPU saturated and about 520 µs at 700 a second, the event loop stalled 13 to 23 ms at about half
a core, and reads whose p99 was 3 to 7 ms alone reached 11 to 34 ms in the mix. So the figures are now CPU per
operation (saturated and at fixed rates) and latency at fixed rates, and the targets are stated in them. Retired:
heartbeat throughput over \`/health\`'s, heartbeat and batch p99 at 32 connections, batch shift heartbeats per
second, heartbeats in the closed-loop mix over alone and reads' p99 there, the event-loop delay of every
saturated scenario, and start/stop with a webhook endpoint over without.
`;

export const READING = `## Reading the numbers

- **Cost, saturated and at a rate.** A closed-loop scenario keeps 32 requests waiting, so its cost per operation is
  the cheapest the gateway can do: a turn of the event loop reads many requests, a SQLite group commit carries many
  writes, a PostgreSQL statement carries many heartbeats. At a fixed rate each operation pays more of its own
  wake-ups, system calls and commits, so the same operation costs more; the open loop's figures are what a
  deployment pays at that rate. Both are CPU time, not wall time: waiting (for a flush, for the database) costs
  nothing unless something spins.
- **The idle cost is inside every phase.** The background jobs run during every phase; at a rate, the idle line
  (CPU ms per second) divided by the operations per second is the part of each operation's cost they account for
  (the phase table's "of which idle" column). It matters most for the slow streams: 5 ms a second of idle work is
  7 µs of each shift of 14 batches of 50 a second. The targets judge the whole cost.
- **Clock ticks.** Linux counts process CPU time in ticks of 10 ms, per process (the gateway; each PostgreSQL
  process), so a phase's CPU is known to about a tick per process. Over a phase of heartbeats alone (hundreds of
  ticks) that is under 1% of the figure; for the batches and cycles at the busy rate, a few percent of a core over
  the phase (tens of ticks), a few percent of it. In quick runs (under a second per phase) the costs are only
  indicative.
- **The database's CPU** (PostgreSQL) counts every process of the database server: its backends, the ones that
  exited during the phase, and its background processes (WAL writer, checkpointer). On a database server that
  others use at the same time their work is counted too; the run prints a warning when it sees other sessions at
  its start, and the machine table says how many there were. When the server runs on another machine (or in a
  container whose processes this one cannot see) the database is not measured and the costs are the gateway's
  alone; the machine table says so.
- **PostgreSQL's statistics.** The dataset is analyzed when it is generated; after that only autovacuum updates
  the planner's statistics, and the machine table's engine row says whether it ran (\`autovacuum on\`/\`off\`).
  With it off, every table a scenario grows (shifts, idempotency records, the outbox) is planned as it was before
  the run; the webhook outbox's statements use its indexes whatever the statistics say, other statements may not.
- **The load generator.** It runs on the same machine (one Node.js process), held on one CPU while it measures
  (\`taskset\`; \`--no-pin\` lets it run anywhere and makes the run exploratory); the server and PostgreSQL run on
  every CPU, that one included. An open-loop latency runs from the instant the request was due, so a request this
  process sent late carries its lateness: the send lag (how late it left), the generator's own event-loop delay
  and its CPU are reported with every phase, so a latency the generator distorted shows as such. Its sockets are
  counted too: many more than the phase's steady need means a stall made requests pile up. \`npm run bench\` starts
  it with a young generation of 2 x 2 MB (\`--max-semi-space-size=2\`): the process holds the dataset's plan, and
  with V8's default size each of its scavenges found about 9 MB alive and took 25 to 60 ms on its one CPU, which
  delayed the sends behind it. On SQLite, heartbeats alone at 700/s, two interleaved rounds: send lag p99 28.6 and
  23.4 ms with the default, 2.4 and 1.9 ms with 2 MB; the heartbeat's p99 41.6 and 33.6 ms against 7.8 and 6.5 ms;
  the gateway's CPU per heartbeat (425 and 427 µs against 415 and 434) and every closed-loop figure unchanged.
- **A rate beyond the machine.** When the gateway cannot keep up with a level, its backlog grows for the whole
  phase: latencies reach seconds, the generator opens a connection per waiting request, and requests left unread
  past the gateway's headers timeout (\`HEADERS_TIMEOUT_MS\`, 10 s) have their connections closed. The run then
  fails with those errors, as it should; the figures of that phase describe an overload, not a cost.
- **Compare across machines** in multiples of \`GET /health\`'s cost in the same run (\`x /health\`), not in
  microseconds. The reference machine's speed also varies from hour to hour: read a run with its load average.
- SQLite runs in WAL mode and every commit is flushed (\`fdatasync\` of the write-ahead log) before it is
  answered; the flush runs in Node's thread pool, whose CPU is the gateway's.
`;

export const MADE_OF = `## What the costs are made of

Measured with profiles of the server (\`--profile\`), timings of single statements under load, and PostgreSQL's
own statement log; the figures themselves are in the results above.

- **A heartbeat.** When its answer is known in advance (it records \`recordedAt\`, and no later heartbeat is
  recorded yet), a heartbeat is one statement that moves the shift, stores the idempotent result and confirms the
  API key, all or nothing. The key is looked up at most once a minute per key: in between it is reused, and the
  heartbeat's statement checks that the key and its application are exactly as they were (anything else, such as
  a replay or a refusal, takes the full path, whose first statement checks the key the same way; a key that
  changed is looked up again).
  - On SQLite the statement and the stored result's insert are one job of the group commit: the writes that arrive
    while a commit is under way share the next one, each in its own savepoint, and the write-ahead log is flushed
    once for all of them off the event loop. Fastify's own per-request work (what \`/health\` costs) is a large
    share of a heartbeat; the rest is the heartbeat's own (the body's parsing and validation, the key's hash, the
    idempotency fingerprint, the statement, the response, the log line).
  - On PostgreSQL the statement carries the stored result too and runs outside any explicit transaction, so it
    commits on its own: one round trip per heartbeat (the statement is prepared once per connection).
  - Shift ids are time-ordered (uuid v7): the active shifts, which heartbeats and stops find by id, are the
    newest, so their keys share a few pages at one end of the primary-key index.
- **A batch** of 50: the one update of the 50 rows (about 0.25 ms timed alone on this dataset on SQLite, about
  5 µs a row), the idempotent record of the 50 results, the validation of 50 ids and the response.
- **A start and a stop**: the stop also records the shift's running totals (the upsert of its day, week and
  month rows beside the version bump), and both read the workspace's webhook subscribers; on PostgreSQL a cycle
  is about 20 statements, each a round trip and a wake-up of a backend.
- **Reports on SQLite hold the event loop** (the driver is synchronous). They run through the store's read turns
  (\`src/db/read-turns.ts\`): a turn runs reads for at most 5 ms and the rest wait for the next turn, in arrival
  order, so no turn holds timers, finished flushes and writes for more than a few reads' time. No single request
  or background job holds the loop longer than a few milliseconds (the idempotency purge and the timeout sweep
  work in bounded chunks). On PostgreSQL, whose driver waits for the database, reads do not hold the loop.
- **Leaderboard.** Rankings are computed once per workspace, environment, period and filter and reused while the
  workspace's activity version holds; after a stop only the staff members that changed are recomputed, from the
  running totals. A page costs a slice plus the page's profiles and notices, page 1 and a deep page alike.
- **Summary and per-staff aggregates.** One read of a few totals rows per period plus the staff member's active
  shifts.
- **Webhooks.** Enqueueing is one read of the workspace's endpoints (with the staff member's fields), one event
  row and one delivery row, in the write's transaction. Delivering runs on the background thread (signing and
  the POST) and the main thread (the claims and the recorded attempts); \`start-stop-webhooks\` beside \`start-stop\`
  gives what both cost a cycle, and \`webhook-delivery\` the cost of one delivery.
- **Memory.** About 26 MB of the main heap is live after start-up and 40 to 55 MB while serving. The command's
  memory settings (docs/OPERATING.md, "Memory") keep the young generation at 2 x 16 MB and let the old one grow to about
  1.5 times what was live before a full collection; the background thread (checkpoints, webhook sends) adds its
  own heap, which grows once deliveries flow. "Measurements behind the design" ("Memory") says where a peak goes and what
  each setting and change was measured to do.
- **Found on the way.** On PostgreSQL, every heartbeat and stop read its shift through a partial index of active
  shifts instead of the primary key whenever the statistics undercounted active shifts, scanning all of them;
  those statements now state "active and live" as one expression, and a test checks the plan. Statements built
  once run as named prepared statements on PostgreSQL. On SQLite, a write transaction that read first failed at
  once with "database is locked" when another process (the CLI, the benchmark's own data setup) had committed
  since its read; transactions now begin \`IMMEDIATE\` and wait for the other's write instead.
`;

export const HISTORY = `## Against earlier builds

Compare two builds with \`--compare\` in one session, interleaved, and repeat what looks different: on this
the reference machine two runs of one build can differ by 20% or more when anything else runs. When the builds' database
schemas differ, run the benchmark from the older checkout (its dataset has the older schema; the newer build
upgrades its copy when it starts) with one round per invocation, and invoke it twice.
`;
