/**
 * docs/BENCHMARKS.md, "Measurements behind the design": the measurements that decided the performance techniques
 * docs/ARCHITECTURE.md keeps and the serving process's memory settings, kept as they were written.
 */
export const DESIGN = `## Measurements behind the design

The figures behind the techniques docs/ARCHITECTURE.md keeps, and behind the serving process's memory settings,
as they were measured (paths as they were then; the statements once named in \`db/sql/\` are now written in their
repositories).

### Performance techniques kept

A technique stays only where it saves at least 15% of an operation's cost. Each was measured against a build
without it (\`npm run bench -- --only heartbeat,heartbeat-batch,start-stop,summary --compare <builds>\`, full
dataset, two interleaved rounds, CPU per operation including the database's on PostgreSQL). "Without" is the
operation's mean cost in the build without the technique over its cost with it; the saving is 1 - with/without.

| technique | where | SQLite: without / with | PostgreSQL: without / with |
|---|---|---|---|
| **Group commit** (SQLite, \`db/group-commit.ts\`; see above) | writes on SQLite | heartbeat 3.83x (saves 74%), batch 2.22x (55%), start + stop 2.24x (55%) | - |
| **Waiting for company** (SQLite, \`db/group-commit.ts\`: a batch that would start short waits 2 ms while writers are concurrent; see above) | writes on SQLite below saturation | heartbeat at 700/s 1.34x (saves 25%: 252 and 256 µs against 334 and 348); saturated heartbeat, batch and start + stop, and batches and cycles at the busy rate within the noise (0.99x to 1.16x) | - |
| **Statements prepared once**: per connection and name on PostgreSQL (\`db/pg-dialect.ts\`: the named statements, and a report's union of reads per shape, \`runShaped\`), per text on SQLite (\`db/statement-cache.ts\`, every statement) | every request | heartbeat 1.70x (41%), batch 1.51x (34%), start + stop 1.98x (49%), summary 1.98x (49%) | heartbeat 2.17x (54%), batch 1.32x (24%), start + stop 1.31x (24%), summary 1.23x (19%) |
| **The cached key** (\`http/api-key-auth.ts\`): a heartbeat within a minute of its key's lookup makes none; the known heartbeat's statement checks the key's credential instead | heartbeats | heartbeat 1.34x (25%) | heartbeat 1.46x (31%) |
| **Dashboard tokens verified once a minute** (\`auth/dashboard-auth.ts\`, with the cache of keys verified in the last minute, \`auth/keys/api-key.ts\` \`RecentlyVerified\`): a token's signature and claims are checked at most once a minute, and the result is kept until the token expires; memberships are still read per request. Checking an HS256 signature imported the key and computed the MAC through Web Crypto, off the event loop and back, about 40 µs of CPU in isolation and more under load | dashboard requests | approval 1.19x (saves 16%) with either build first (without first: 508, 577 and 578 µs against 427, 454 and 515; with first: 471, 532 and 478 against 560, 592 and 615); the reviewers' queue page at 4 connections 1.29x and 1.53x (22 to 35%), one submission at 4 connections 1.29x and 1.43x (22 to 30%); saturated 1.05x to 1.27x | one submission at 4 connections 1.21x (saves 17%: 661, 683 and 733 µs against 790, 852 and 870), saturated 1.13x; the queue page 1.08x and 1.12x; an approval, which costs 2.5 ms there, 1.06x (within the noise) |
| **The known heartbeat** (\`idempotency.applyKnown\`, \`shifts/repository.ts\` \`recordKnownHeartbeat\` and \`recordKnownHeartbeatWithResult\`): on PostgreSQL one statement instead of a transaction of five (begin, the key, the update, the result, commit) and its savepoint pair; on SQLite two statements instead of five in the group commit's job | heartbeats | heartbeat 1.15x (13%; 1.164 and 1.147 in two sessions, five runs each way) | heartbeat 2.53x (60%) |
| **Known heartbeats together** (PostgreSQL, \`db/group-commit.ts\` \`StatementGroup\`, \`shifts/known-heartbeat.ts\` \`recordKnownHeartbeatsWithResults\`): the known heartbeats that arrive while two statements of them are at the server go as one set-based statement (an update joined from a JSON recordset, feeding the insert of their results): one round trip, one snapshot and one commit for up to 64; one that goes alone keeps the one-row statement, which costs the server about 40 µs less than the set-based one carrying a single row | heartbeats on PostgreSQL | - | saturated heartbeat 2.18x (saves 54%: 176, 166 and 157 µs against 346, 379 and 363, three interleaved rounds); at 700/s 0.97x (741, 758 and 742 µs against 729, 725 and 720: it goes alone there) |
| **Waiting for company** (PostgreSQL, \`db/group-commit.ts\` \`StatementGroup\`, \`gatherMs\`: as on SQLite, while game servers send concurrently a statement of known heartbeats that would go short waits 2 ms for the ones about to arrive) | heartbeats on PostgreSQL below saturation | - | heartbeat at 700/s 1.34x (saves 25%: 560, 579 and 559 µs against 784, 755 and 736); saturated 1.34x (113, 120 and 118 µs against 160, 153 and 157); the busy mix 52% of a core against 64%, its heartbeats' p50 3.3 to 3.5 ms against 1.7 and p99 12.6 to 19.0 ms against 12.4 to 18.3 |

The known heartbeat saves less than 15% on SQLite and is kept there all the same: it is the same code path on both
stores (the service does not know the store; \`idempotency.applyKnown\` applies it with its stored result as each
store does, where the key's in-flight rules already differ), so dropping it on SQLite alone would add a
store-dependent branch to the route's declaration, and without it SQLite's saturated
heartbeat would cost about 1.2x what it cost before the data layer was made plain (the plain build is within 1.05x
with it). Every other technique saves more than 15% of some operation's cost on each store it runs on.

Not a technique but a rule of the same kind: the statements a request runs on every call are named statements
(\`db/sql/\`), not Kysely builders, because building and compiling a query per request is a cost of its own. The
reads most requests make (a workspace, a staff member by game or chat user) and the writes of every stop (the
totals writer's workspace lock, longest-shift bound and change rows, a shift event's endpoints) were Kysely
builders at first; against the build before the data layer was made plain, SQLite's summary then cost 1.34x and
1.38x, staff-month 1.14x and 1.22x, and start + stop 1.37x and 1.47x, and a CPU profile showed Kysely's own code
(building and compiling those queries) at 13% of the CPU instead of 6%. As named statements they cost 1.09x,
0.92x and 0.99x. The approved notices a summary and every leaderboard page read were the last such builder
(on PostgreSQL sent unnamed, so parsed and planned on every request, its list of ids one parameter each); as
\`findApprovedNotices\`, its ids one JSON value, PostgreSQL's week leaderboard page costs 538 and 542 µs instead
of 617 and 619 and the summary 445 and 464 instead of 518 and 528 (database included; two interleaved rounds,
per-staff month, which reads no notices, 0.96x); on SQLite 0.92x and 1.0x.

On PostgreSQL a report's union of reads (its text depends only on the periods' shape) was sent unnamed at first
and planned on every request: summary then cost 1.80x and staff-month 2.10x the earlier build's. Prepared per
shape (\`runShaped\`, at most 256 shapes per process) they cost 1.34x and 1.52x, which is the cost of running
second on the same PostgreSQL dataset: the earlier build measured against itself, second after first, reads
1.30x and 1.45x.

Once the named statements gave way to \`sql\` templates written in their repositories, the texts a write runs on
every call that are composed of shared rules (the known heartbeat, with the live-shift rule and the key's
credential check; taking a key, with the same check; storing a result) were composed and compiled by Kysely on
every request, and SQLite's prepared statement was found by a text made anew, which V8 hashes anew on every
lookup (the named statements' texts were the same string objects each time). A profile of the saturated
heartbeat put Kysely's own code at 9.9% of the CPU against 3.8% before, and the statement cache's lookup at
436 ms against 76. Compiled once per store (\`db/compiled.ts\`, \`CompiledOnce\`: the text written from named terms,
the values bound per run), in isolation on SQLite over 20,000 calls: the known heartbeat's statement 4.6 to 9 µs
of CPU instead of 10 to 16; taking a key with a cached key's credential 5.5 to 8.9 instead of 8.9 to 13.4, and
without one 2.7 to 3.5 instead of 4 to 5.3; storing a result 5.5 to 6.1 instead of 7.5 to 8. Against the build
before the core was reshaped (the one with the named statements), saturated on SQLite, three interleaved rounds
each way: heartbeat 0.95x and 1.07x (it was 1.15x in both orders with the texts compiled per request), start +
stop 0.96x and 1.06x (it was 1.11x to 1.19x), a start 0.77x and 1.09x, a batch 0.95x and 1.00x, an intake 0.80x
and 0.85x. On PostgreSQL, two rounds, database included: heartbeat 0.47x, start + stop 0.99x, a start 0.88x, an
intake 0.89x.

A request for time off inserts its notice unless a pending or approved notice of the staff member overlaps it: one
statement of thirteen values around the overlap rule (\`time-off/repository.ts\`, \`insertNoticeIfClear\`). As a
builder it was composed and compiled on every request, about 50 µs of CPU in a profile of the saturated request,
next to the 54 µs SQLite spent running it. Compiled once, a request cost 336, 412 and 305 µs against 414, 427 and
445 (0.82x: saves 18%; SQLite, one database, three interleaved rounds, the index below in both builds). An
approval's read of its notice and its conditional update were compiled once the same way and measured 0.96x (306,
318 and 347 µs against 341, 353 and 321): under 15%, so they are builders still.

Not a technique but an index of the right column: every read of a staff member's notices asks which overlap a span
(\`starts_at < end and ends_at > start\`): the overlap checks of a request and of an approval, and the approved
notices a summary or a leaderboard page counts. Indexed by start, the read was bounded only by \`starts_at < end\`,
which every earlier notice meets, so it read the staff member's whole history; indexed by end (migration 0014,
\`inactivity_notices_staff_end\`), only the notices not over when the span starts. With both changes, each build on
a database of its own (the schema differs), two rounds each, alternating, on SQLite: a request 311 and 335 µs
against 450 and 465 (0.71x), an approval 343 and 348 against 401 and 363 (0.91x). On PostgreSQL (database
included; three runs of this build, then two of the build before from its own checkout on a database of its own,
since the benchmark's dataset is made by the checkout that runs it): a request 1,734, 1,939 and 1,944 µs against
1,778 and 2,247 (0.93x), an approval 2,233, 2,362 and 2,524 against 2,685 and 2,435 (0.93x). The summary and
the week leaderboard page, which read the approved notices of the staff members they show, on SQLite: 269 and 239
µs against 225 and 304 (0.96x), 244 and 326 against 261 and 374 (0.90x).

Tried and not kept: a leaderboard page reads its staff members' profiles and their approved notices in two
statements at once. Sent as one statement on PostgreSQL (each read's rows aggregated into a JSON array), the week
leaderboard page cost 888, 979 and 952 µs against 943, 930 and 1,018 for the build before (0.97x: three
interleaved rounds, saturated, database included), the summary as a control 1.00x: within the noise, the round
trip saved paid back in building and parsing the JSON. The reads stay two.

### Memory

What a busy gateway holds, measured on the benchmark's full dataset (SQLite, saturated scenarios one after the
other, the heap read every few seconds inside the server and the mappings from \`/proc/<pid>/smaps\`): about 60 MB
of live JavaScript objects; the node binary's code (about 60 MB resident); glibc's heaps (40 to 60 MB, SQLite's
caches and statements among them); the webhook sender's thread when deliveries run (its own heap, sized in
\`webhooks/sender-thread.ts\`). With V8's and glibc's defaults on a machine with plenty of memory, three things
add to that:

- the young generation: V8 sizes each semi-space from the machine's memory, up to 64 MB, and a busy server
  fills both: 105 to 128 MB;
- the old generation: with a 4 GB limit V8 lets it grow to four times what was live at the last full collection
  before the next one, so it climbs from 40 to 110 MB of mostly garbage over a few minutes of load;
- malloc arenas: glibc gives each thread that allocates its own, and the webhook scenario's threads added 50 MB.

So \`bin/workspace-gateway.js\` starts \`serve\` and \`demo\` once more in the same process (\`process.execve\`: same pid,
same streams, same signals) with \`--max-semi-space-size=16\`, \`--max-old-space-size=768\` (with a limit under
2 GB V8 grows the old generation by a smaller factor, about 1.5 here) and \`MALLOC_ARENA_MAX=2\`; what the operator
set wins. Measured interleaved on one dataset, each build's peak resident memory (VmHWM) over the run:

| scenarios | defaults | semi-space 16 | + old space 768 | + 2 arenas |
|---|---|---|---|---|
| summary, leaderboard, heartbeat, batch, start, intake, webhook delivery | 401 to 430 MB | 340 to 402 MB | 321 MB | 302 MB |
| heartbeat, summary, intake, batch | 361 MB | - | - | 239 MB |

A worker thread (the SQLite checkpointer, the webhook sender) does not share the main thread's compile cache:
it reads \`NODE_COMPILE_CACHE\` when it starts, and without it Node strips the thread's TypeScript sources itself,
loading its TypeScript parser into that thread for good (about 12 MB each, measured on a one-line worker). So the
command sets \`NODE_COMPILE_CACHE\` to the cache it enabled, for the threads it starts: an idle \`serve\` on SQLite
holds 169 MB instead of 185 (three starts each); the peak while 30,000 webhook deliveries drain moved by less
than the noise (294 to 300 MB against 300 to 301).

V8's heap flags belong to the process and take precedence over a worker thread's own limits (the
\`resourceLimits\` it is started with), so with the flags above every thread had the main thread's 16 MB
semi-spaces and 768 MB old-generation limit: the webhook sender held 40 to 44 MB of heap, 27 MB of it young
generation, for 8 to 15 MB in use. The command clears both flags once the main thread is up (its heap was sized
when it started), and each thread is sized by its own limits: the sender 24 MB young (8 MB semi-spaces, which
collect its garbage about as rarely as 16 MB did: 150 scavenges over 30,000 deliveries against 140; 2 MB took
990 and a fifth more of the thread's CPU) and 64 MB old, the checkpointer 2 MB and 32 MB. The sender's heap is
now 27 to 28 MB; a test reads each thread's heap limit inside \`serve\`. Later the sender's young generation went
to 12 MB (4 MB semi-spaces): over a 30,000-delivery backlog 282 scavenges and 250 ms of pauses against 169 scavenges and
150 ms (about 3 µs more per delivery of about 200), and the peak over heartbeat, intake and the two webhook
scenarios (three interleaved rounds, SQLite) 239, 233 and 239 MB against 241, 253 and 244.

With all three the old generation stays under 61 MB and the young under 32 MB; the gateway's garbage-collection
pauses took 1.3% of its CPU instead of 0.6% (the pauses' own sum, which the machine's noise does not blur as it
does a cost per request).

Response serializers: Fastify compiles one for every response schema of every route (a GET's HEAD twin too) and
keeps each one's generated source, about 15 KB each. Of the 303 it compiled, 257 wrote the error body, which every
error status of every route declares as the same \`$ref\`. \`http/serialization.ts\` compiles once per schema object
and once for the error body: 29 serializers, an idle demo's live heap 38 MB instead of 47 (old space 26 MB
instead of 37), and the peak over summary, leaderboard, heartbeat, intake and the two webhook scenarios (SQLite,
one after the other on the full dataset) 245 to 264 MB over nine runs, median 249, against 275 and 281 MB in two
runs of the build before; on PostgreSQL 224 MB against 252, one run each.

What remains above 250 MB is the webhook scenario after a run of others. Where a 273 MB peak went (SQLite,
summary, leaderboard, queue and heartbeat, then 30,000 deliveries drained; the mappings of \`/proc/<pid>/smaps\`
and each thread's heap, every 2 s): 67 MB of mapped files (the node binary's code, SQLite's library); glibc's
main heap 46 MB (SQLite's page cache, then of up to 16 MB, the prepared statements, Node's own allocations); the main
thread's V8 heap 105 MB (young 32, old 57 for 45 to 55 MB live: promoted garbage up to V8's limit, as heap
snapshots before and after a drain show: 52 and 55 MB of live objects, Node's own sources included, of which 17
MB are module sources, 4.6 MB of those the generated validators and serializers, and 10 MB bytecode); the sender
thread 27 MB, which it adds when the first delivery starts it (248 MB the moment before); the checkpointer
thread 10 MB; thread stacks and the second malloc arena the rest. What was tried, against the same build:

- Recording attempts with a statement per chunk length left up to 87 shapes of each of two statements in
  SQLite's statement cache (one compiled program each); one JSON-valued statement of each took the webhook
  scenario alone from 279 to 294 MB down to 264 to 271 MB.
- Sending on the event loop instead of the sender thread: 243 to 244 MB against 262 to 268 in the webhook
  scenarios alone, and 0.8x the CPU per delivery (no messages between threads), but lower saturated throughput
  with deliveries flowing (1,301 and 1,242 start/stop cycles a second against 1,450 and 1,306) and TLS
  handshakes on the loop that serves the API. Measured again once the benchmark's receiver spoke HTTPS
  (interleaved, two rounds each): with kept-alive connections the two cost the same (CPU per start/stop cycle
  with webhooks 1.02x, per delivery 200 and 219 µs against 193 and 257) for 240 to 242 MB against 253 to 277;
  with a receiver that closes every connection, each delivery's handshake costs 1.2 to 1.4 ms of CPU, and on the
  event loop it took the API with it: 453 and 383 requests a second in the start/stop scenario with webhooks
  against 1,154 and 968, 1.6x the CPU per cycle, event-loop delay p99 26 and 29 ms (max 48) against 13 and 12 ms. A receiver's choice
  must not cost the API that, so sending stays on its thread.
- SQLite's page cache: better-sqlite3 builds it at 16 MB a connection, which the full dataset fills; the store's
  connection keeps 4 MB (\`db/connect.ts\`). The pages it no longer keeps are read back from the operating system's
  file cache: a summary 17.6 pages instead of 10.3, a start/stop cycle 12.4 instead of 10, a heartbeat and a
  leaderboard page under one more (counted with strace). Peak over five scenarios, interleaved: 262 and 266 MB
  against 284 and 268.
- A young generation of 2 x 8 MB instead of 2 x 16 brings the webhook scenario's peak down by about 25 MB
  (interleaved, two rounds: 275 MB against 299), but the garbage-collection pauses double (3.0% of the
  gateway's CPU instead of 1.5%) and the reads that allocate most cost more (week leaderboard 1.22x, summary
  1.12x), so the setting stays at 16. Measured again once the serializers were shared (two interleaved rounds):
  8 MB took the peak to 235 and 233 MB against 250 and 249, with the week leaderboard at 1.34x and the summary
  at 1.10x; 12 MB left the peak where it was (251 and 248).
- Also within the run-to-run spread of the peak (about 15 MB) once the serializers were shared, each in two
  interleaved rounds or two runs: a first old-generation limit of 16 or 32 MB (\`--initial-old-space-size\`), a
  heap growing factor of 1.25 (\`--heap-growing-percent=25\`), one malloc arena instead of two. None is set. (The
  sender thread's young generation at 12 MB looked the same in two runs of six scenarios; three interleaved
  rounds of the four scenarios that end with deliveries showed its 9 MB, above.)
- Where the peak went after the serializers were shared (SQLite, the six scenarios above, 245 MB, from
  \`/proc/<pid>/smaps\` as the backlog finished draining): V8's heap pages 118 MB (101 MB before the sender thread
  started; the main thread's young generation is 32 of them), the node binary's pages 62 MB (its code 33 MB, its
  read-only data 26 MB: the time-zone and other ICU data Intl reads, which a bare \`node\` process with one
  time-zone format already maps 13 MB of), glibc's main heap 35 MB, the second malloc arena 16 MB.
- A fixed malloc trim and mmap threshold: glibc's heap reached 52 MB instead of 62, the peak stayed where it was.

One thread for both background services. The checkpointer and the sender each had a thread of their own, and a
thread costs resident memory before it does anything (18 MB for an idle one-line worker here: its V8 heap and
Node's own modules). Both now run on one thread (\`background/thread.ts\`), started with the first of them (the
checkpointer, on SQLite) and sized by the sender's limits. A SQLite store checkpointing and 2,000 deliveries
sent, in one process: 143 to 155 MB on one thread against 163 to 177 MB on two (five runs each). In the
benchmark the saving is smaller: heartbeat, intake and the two webhook scenarios, three interleaved rounds, peaked
at 233, 237 and 228 MB against 238, 240 and 239 (the six scenarios above, two rounds: 238 and 259 against 254
and 253, one round of the first build taking 30 MB at the week leaderboard). CPU per start/stop cycle with
webhooks 0.93x, per delivery 0.95x, both within the noise. What the sharing costs: a checkpoint holds the thread
while it copies, so the sends wait. Under saturated intake (the heaviest writes) the checkpoints took 2.1 s of a
13.4 s profile of the thread, rounds every 500 ms: about 75 ms a round; the start/stop scenario's event-to-delivery p99 was 77 to 102 ms
(five runs, mean 90) against 69 to 88 (mean 79), and a backlog drained at 5,910 to 6,436 deliveries a second
against 5,634 to 6,105. A delivery's deadline is a timer on that thread: an answer that arrives in the last
tens of milliseconds before a 10 s deadline, while a checkpoint runs, can be recorded as a timeout (and
retried).

A full SQLite run of the benchmark on this build (every scenario, then the open loop) peaked at 243 MB, highest
in the webhook backlog's drain, against 275 MB in the recorded run of the build before the shared serializers.
That run is not the recorded one: its machine had another CPU (an Intel Xeon against the recorded runs' AMD
EPYC), on which reads cost about 1.4 times as much against \`GET /health\` and the open loop's tails were two to
three times as long for the earlier build too (interleaved: busy mix heartbeat p99 18 to 32 ms for both builds).

### Smaller choices

- Every value of a SQLite statement is written \`+?\` rather than a bare \`?\` (\`db/sqlite-dialect.ts\`): with a bare
  parameter that its planner compared with a constant, SQLite compiled a kept statement again on every run, and
  heartbeats at 700 a second spent 12% of the gateway's CPU there.
- The event loop's delay is sampled only while requests are answered (\`features/monitoring/event-loop-delay.ts\`):
  an idle gateway that sampled all the time spent about 10 ms of CPU a second on it (200 wakeups), more than
  everything else it did while idle.
- PostgreSQL claims webhook deliveries in the outbox index's order whatever its statistics say
  (\`webhooks/repository.ts\`): with statistics that had not followed a backlog, its planner read every
  due row and sorted them, 22 ms a claim at 15,000 due against about 1 ms in index order.

### The core reshaped: table owners, \`auth/\`, typed routes

The tables' owners and their \`upkeep.ts\`, the caller carrying a hot read's unconfirmed key instead of the services
taking a precondition, the moves to \`auth/\`, \`journal/\`, \`webhooks/\` and \`applications/review/\`, and the routes
typed by the TypeBox type provider change no statement a request sends (\`sql/\` snapshots). Measured against the
build before them (the commit before the table owners, with the Roblox call windows' migration so that both builds
open one database), \`--quick --duration 4\`, interleaved on one database, in both orders, because on PostgreSQL the
build measured second in a round pays more as the database grows (this build over the earlier one, CPU per
operation with the database's, mean of the rounds; then the geometric mean of the two orders):

| | SQLite: this first (3 rounds) | other first (2 rounds) | both orders | PostgreSQL: this first (3 rounds) | other first (2 rounds) | both orders |
|---|---|---|---|---|---|---|
| heartbeat | 0.98 | 1.06 | 1.02 | 0.77 | 1.04 | 0.90 |
| batch of heartbeats | 0.90 | 0.81 | 0.86 | 0.86 | 1.01 | 0.93 |
| start + stop | 1.01 | 0.87 | 0.94 | 0.83 | 0.95 | 0.89 |
| intake | 1.02 | 0.87 | 0.94 | 1.03 | 0.91 | 0.97 |
| summary | 0.94 | 1.17 | 1.05 | 0.77 | 1.31 | 1.00 |
| week leaderboard page | 0.58 | 1.27 | 0.86 | 0.62 | 1.16 | 0.85 |
| notice request | 1.02 | 0.81 | 0.91 | 0.97 | 0.87 | 0.92 |
| notice approval | 0.95 | 1.08 | 1.01 | 0.99 | 0.88 | 0.93 |
| \`GET /health\` in the same runs | 0.93 | 1.26 | 1.08 | 0.97 | 1.08 | 1.02 |

Within 1.1x of the earlier build everywhere; the spread between the two orders (the machine was shared with other
work) is wider than any difference between the builds.

### The roster page against a leaderboard page

A roster page of 25 (\`GET /v1/staff\`, \`roster\`, a member's dashboard token) is to cost at most a week
leaderboard page of 25 (\`leaderboard-week\`, an API key). The leaderboard serves its ranking from a cache
(\`reports/ranking-cache.ts\`): a page reads the workspace (checking the key's credential in the same statement),
its 25 profiles and their approved notices, 3 statements. The roster sent 6: the member's memberships, the
workspace, the page of staff, the week's totals of those 25 (the union read of \`totals/repository.ts\`), their
approved notices and their live shifts; the last two found the page's shifts under way through the workspace's
partial index of active shifts (\`shifts_active_by_start\`), so each read every shift under way in the workspace.
Now a page is one statement (\`roster/repository.ts\`, \`listRosterPage\`): the page of staff through
\`staff_roster\`, and for each staff member their row of the week's bucket of the totals, their shifts without an
end (\`shifts_staff_ended\`) and their approved notices overlapping the week (\`inactivity_notices_staff_end\`),
each found by index per staff member; 3 statements in all, with the memberships and the workspace. The week's
figures are the totals' own arithmetic (\`workedMsInBucket\` over \`workedInPlan\`) and the leaderboard's
requirement, so they stay the leaderboard's and the summary's (a property test compares the three). The
memberships are read with a \`sql\` template (a builder cost 17 µs of CPU in isolation, the template 13), and the
answer's nullable fields are JSON Schema type lists instead of unions: the response serializer wrote a page of 25
in 20 µs (the leaderboard's 9), validating every nullable value against each branch of its union, and now in 9 to
11. No index was needed.

Measured with \`npm run bench -- --quick --only leaderboard-week,roster,summary,discord-activity --duration 4
--compare <the build before>\` (500 staff, saturated, CPU per request, builds interleaved on one database), on the
shared 2-core machine with other work running throughout (\`GET /health\` cost 67 to 149 µs from run to run, 32 in
a quiet full run), so each figure is a ratio within one run:

| roster page over week leaderboard page | before | after |
|---|---|---|
| SQLite (8 runs each) | 1.39 to 2.26, median 1.68 | 0.90 to 1.39, median 1.07 |
| PostgreSQL, database included (6 runs each) | 1.57 to 2.07, median 1.95 | 0.66 to 1.18, median 1.07 |
| PostgreSQL, the gateway's CPU alone | 1.59 to 2.25 | 0.79 to 1.10, median 1.04 |

A roster page itself cost 1.19x and 1.60x as much before (SQLite, means of two sessions of four rounds) and 1.83x
and 1.89x (PostgreSQL, two sessions of three). On PostgreSQL the database's CPU is every process of the server,
which other sessions may use too: its ratios scatter more than the gateway's.

Where the rest goes, on SQLite (each statement alone on the quick dataset, best of 15 rounds of 1,000 calls):
the roster's page statement costs about 115 µs: the page of staff 48, each staff member's week bucket 29, their
shifts without an end 20, their notices 15 to 18; the memberships 13 more. A leaderboard page reads its 25 profiles
by id in 36 µs and their notices in 15; its totals come from the cached ranking, computed once per activity version for
the whole workspace. So a roster page reads per staff member, about 50 µs a page, what the leaderboard computed
once and kept, and it authenticates a member (the memberships) where the leaderboard checks a cached key inside its
first statement. On PostgreSQL, where a statement's round trip costs more than the index probes inside it, the
page's one statement puts the roster about level with the leaderboard.

Tried and not kept: the roster taking each listed staff member's week totals from the leaderboard's kept ranking
of the week (one cache shared by the two services, filled or brought forward as the leaderboard does), so that its
page statement no longer reads the week's bucket of the totals. It still reads each staff member's shifts without
an end, for the shift under way, and their approved notices, for the requirement: of the about 50 µs a page reads
per staff member, only the week bucket goes. On SQLite (each alone on the quick dataset, best of 15 rounds of
1,000 calls, two sessions) the page statement cost 65 and 71 µs against 89 and 99, and finding 25 staff members'
totals in the kept ranking 2 to 3 µs: about 25 µs less of a roster page that costs 310 to 350 µs of CPU
saturated, 6 to 8%, under the 15% a technique must save (see "Performance techniques kept"). Reading only the
live shift (one row: the newest seen since the timeout) instead of every shift without an end costs no less (63
µs with the notices, against 59). Measured with \`npm run bench -- --quick --only leaderboard-week,roster
--duration 4\` on each store, the build before and the build with the change, with more other work running than
above (\`GET /health\` cost 45 to 178 µs from run to run):

| roster page over week leaderboard page | before | with the kept ranking |
|---|---|---|
| SQLite (6 runs each) | 0.93 to 1.18, median 1.08 | 0.97 to 1.19, median 1.01 |
| SQLite, builds interleaved on one database (7 rounds) | 0.70 to 1.72, median 0.99 | 0.72 to 1.15, median 0.99 |
| PostgreSQL, database included (4 and 6 runs) | 0.81 to 1.53, median 0.90 | 0.40 to 1.18, median 0.84 |
| PostgreSQL, the gateway's CPU alone | 0.75 to 1.41, median 0.83 | 0.57 to 1.02, median 0.80 |

The ratio moves by about those 25 µs, within the scatter of the runs; and a roster read after a write would pay
for bringing the shared ranking forward (or for computing it, a read of the whole workspace) where its own
statement reads 25 staff members. The roster still reads its week's bucket of the totals.

### Discord signature check

Every Discord interaction ([DISCORD.md](DISCORD.md)) is verified before anything else: an Ed25519 signature of
its timestamp and raw body, with \`node:crypto\`, the application's key parsed once and kept.
\`node bench/discord-signature.ts 20000\` measures the check alone on a signed \`/activity\` interaction of 502
bytes, and the \`discord-activity\` scenario measures it the same way in every run (the gateway's verifier, in the
load generator's process, 20,000 checks after a warm-up). On the AMD EPYC machine, shared with other work, it cost
74 to 126 µs of CPU per check, mostly 76 to 90 (the median of 28 runs: 83 µs), Node 24: about 0.08 ms. Checking 512
different signed interactions in turn costs the same as checking one again and again (82 µs against 79, best of
eight rounds).

### A Discord interaction against the API read it wraps

A signed \`/activity\` interaction is to cost at most 1.1x the API read it wraps (\`GET /v1/activity/me/summary\` of
the same kind of staff member, \`summary\`) plus the signature check alone. Beyond the summary's three statements
an interaction reads its application's workspaces (with their public key, guild and time zone) before checking the
signature, parses the JSON itself, and writes a Discord message. Two costs went: the workspace was read again for
its time zone (now in the first read; one statement fewer), and the check for text no store holds walked the raw
body's bytes one index at a time (about 25 µs of CPU an interaction in a profile, finding nothing: the service reads
the JSON itself); the gateway's public address is now worked out only for \`/review\`.

Measured in the same runs as the roster above (interaction over summary + the check alone, CPU per request):

| | before | after |
|---|---|---|
| SQLite (8 runs each) | 1.04 to 2.29, median 1.50 | 0.84 to 1.28, median 1.22 |
| PostgreSQL, database included (6 runs each) | 0.80 to 1.39, median 1.24 | 0.53 to 1.21, median 0.87 |
| PostgreSQL, the gateway's CPU alone | 0.90 to 1.48 | 0.61 to 1.20, median 0.89 |

On PostgreSQL, where its statements cost more than the check and the glue, an interaction is within the target. On
SQLite it was not: in one process, without HTTP (the services called directly on the quick dataset, median of ten
rounds of 1,000), an interaction cost 278 µs against 237 for the summary and the check (129 and 87): 41 µs more,
of which the read of the application's workspaces is 14 and the JSON 2, the rest the interaction's own routing and
message. Through the app's request handling the gap was larger (requests injected in one process, medians of ten
rounds of 1,000: a PING, which reads and checks and answers \`{ "type": 1 }\`, cost 227 µs against 43 for
\`GET /health\`, about 80 more than its read and its check).

**Where those 80 µs go.** Each step was timed on a POST route of its own beside the interactions route, in one app
on a small SQLite database (one workspace of 50 staff members, connected to a Discord application): requests
injected in one process (\`app.inject\`, medians of eleven rounds of 1,000, two sessions), and requests served over
HTTP to autocannon in a second process (8 connections, medians of nine rounds of 4,000). The serving process's CPU
per request, in µs:

| | injected | over HTTP |
|---|---|---|
| \`GET /health\` | 34 and 41 | 40 |
| a POST answering \`{ "type": 1 }\`, without a body | 34 and 42 | 40 |
| the same with a signed interaction's body (502 bytes), read as raw bytes | 63 and 77 | 54 |
| the same with the interactions route's options (its parser, schemas, auth kind, answer schemas) | 63 and 83 | 56 |
| the same, reading the application's workspaces (12 to 13 alone) | 91 and 109 | 80 |
| the same, checking the body's signature (74 to 80 alone) | 172 and 180 | 150 |
| the same, parsing the body's JSON (2 alone) | - | 62 |
| a PING on the interactions route | 219 and 227 | 184 |
| a signed \`/activity\` (the summary, served the same way: 176) | - | 323 |

- The route's own handling is not where the time goes: with the interactions route's options a POST that does
  nothing else costs what a bare one does, within 6 µs. Nothing in it is done per request that need not be:
  the body arrives in one piece and is read into one buffer, nothing validates it (the schemas document Discord's
  shapes), its JSON is parsed once, after the check, the answer's schema is small, the public key is parsed once
  per key and the verifier made once. The framework does not cache its lookup of the catch-all parser the route's
  scope registers (the content type is parsed again, about 0.3 µs a request): left as it is.
- A body costs what a body costs: 29 to 35 µs injected (the injection streams the payload to the framework as a
  request stream), 14 over HTTP.
- The read and the check cost more inside a request than in a loop of their own: the read 25 to 32 µs against 12
  to 13, the check 96 to 109 against 74 to 80. Timed around the verification call inside the route, the call
  itself took 83 to 90 µs (median wall time, five sessions) against 72 to 76 in a loop: the same work, slower
  among a request's other work. The JSON likewise, 4 to 6 µs inside the route against 2. In one process without
  HTTP the effect is smaller: a summary followed by a check cost 157 to 166 µs against 139 to 150 for the two in
  loops of their own, each part 4 to 7 µs slower (median wall times).
- So a PING's 80 to 95 µs beyond \`GET /health\`, its read and its check (injected): the body 29 to 35, the route's
  options 0 to 6, the read's and the check's extra cost inside a request 15 to 20 and 23 to 31, the JSON, the
  answer and the glue the rest (10 to 19).

**Tried and not kept.** The read of the application's workspaces, which every interaction runs before its check,
compiled once per store (\`db/compiled.ts\`, \`CompiledOnce\`) instead of built, compiled and looked up among the
prepared statements by a string made anew at every request: 12.9 µs against 11.7 in one process (medians of 21
rounds of 5,000). That is less than the runs can tell apart (\`npm run bench -- --quick --store sqlite --only
summary,discord-activity --duration 6\`, without it and with it alternately; interaction over summary +
the check alone):

| | without | compiled once |
|---|---|---|
| SQLite, other work running beside the runs (8 runs each) | 0.91 to 1.29, median 1.07 | 0.93 to 1.34, median 1.11 |
| SQLite, nothing else running (3 runs each) | 0.87, 1.17, 1.20 | 1.15, 1.20, 1.21 |
| PostgreSQL, database included | 0.65 (1 run) | 0.98 and 1.19 (2 runs) |

In the runs beside other work the check alone measured 74 to 123 µs and the summary 290 to 480, and the ratio moved with them;
with \`--compare\` (three interleaved rounds on one database) an interaction cost 446, 522 and 599 µs with it
against 466, 579 and 470 without. It saves far less than the 15% a performance technique must
save, so the read is built per request as before.

**Why 1.1x is out of reach on SQLite.** In the runs alone (but one, whose summary cost 393 µs: 0.87x) the summary
cost 234 to 309 µs and the check alone 74 to 78, so 1.1x leaves an interaction 31 to 39 µs for everything beyond
the summary's work and the check as measured in a loop of its own. It spent 48 to 77 more (1.15 to 1.21x). Served
as above it spends 73 more (323 against 176 + 74): the body 14, the read 25 (13 of it the statement, the rest its
cost inside a request), the check's extra cost inside a request 22, the JSON 8 (2 of it the parse), and its
routing and message about what the summary's own route spends beyond an interaction (the key's check, the rate
limit, the envelope). Of those, the gateway's own work is the read and the JSON; the body and the check's extra
cost are the HTTP stack's and the verification's. Even without the read, an interaction would cost 22 to 51 µs
more than the summary and the check, 1.07 to 1.13x: about the target, not within it. And the read could only go
with the application's key and workspaces kept between interactions and confirmed by a later statement, as the
API's cached keys are (a document without \`discord\` disconnects a workspace at once, and a PING makes no later
statement): a change of design, not made here.
`;
