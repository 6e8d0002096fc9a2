/**
 * The retention prune on a million old rows (docs/OPERATING.md, "Retention"): `npm run bench:prune -- [--store
 * sqlite|postgres] [--rows N]`.
 *
 * 1. Fills a fresh database with N old rows (default 1,000,000, all 200 days old) of the pruned tables, by bulk
 *    `insert … select` statements: commands and their event records, webhook events with one finished delivery
 *    and two attempts each, plus a sample of batches per batch size for the sweep below.
 * 2. Batch sizes: times single batches of each table at several sizes in this process. On SQLite a statement runs
 *    in the serving thread, so a batch's time is the event-loop stall it causes.
 * 3. Starts the real gateway (`serve`, RETENTION_DAYS=180) with the event-loop probe (event-loop-probe.ts), waits
 *    for its retention job (a minute after start) to delete every old row, and reports the server's event-loop
 *    delay over that time and the longest answer to GET /health, asked every 50 ms meanwhile.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { openStore, type Store } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/types.ts';
import { DELETE_BATCH, PRUNE_BATCH, PRUNED_TABLES, type PrunedTable } from '../src/features/retention/service.ts';
import { scratchDatabase } from './scratch-database.ts';
import { startServer } from './server.ts';

const DAY = 86_400_000;
const SIZES = [100, 250, 500, 1000, 2000];
const BATCHES_PER_SIZE = 10;

const { values } = parseArgs({ options: { store: { type: 'string', default: 'sqlite' }, rows: { type: 'string', default: '1000000' } } });
const kind = values.store === 'postgres' ? 'postgres' : 'sqlite';
const rows = Number(values.rows);
const log = (line: string) => process.stderr.write(`${line}\n`);

const BATCH = DELETE_BATCH;

/** A series 1..n as a table `n(i)`: a recursive CTE on SQLite, generate_series on PostgreSQL. */
function series(n: number) {
  return kind === 'sqlite'
    ? sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n})`
    : sql`with n(i) as (select generate_series(1, ${n}::int))`;
}

/** A 36-character id from a prefix and a number (the length of the gateway's uuids). */
function id(prefix: string) {
  return kind === 'sqlite'
    ? sql.raw(`'${prefix}' || substr('00000000000000000000000000000000000' || i, -35)`)
    : sql.raw(`'${prefix}' || lpad(i::text, 35, '0')`);
}

/** Fills the pruned tables with `total` rows (commands : events : webhook events : deliveries : attempts = 2:2:1:1:2). */
async function fill(db: Kysely<Database>, total: number, now: number): Promise<void> {
  const webhookEvents = Math.ceil(total / 8);
  const commands = 2 * webhookEvents;
  const old = now - 200 * DAY;
  // A bigint on PostgreSQL, which would otherwise type `$n + i` as the series' integer.
  const at = sql`cast(${old} as bigint)`;
  const workspace = 'w0000000000000000000000000000000001';
  const endpoint = 'p0000000000000000000000000000000001';
  await sql`insert into workspaces (id, name, slug, timezone, settings, create_staff_profile_on_accept, created_at, updated_at)
    values (${workspace}, 'Bench', 'bench-prune', 'UTC', '{}', 0, ${old}, ${old})`.execute(db);
  await sql`insert into webhook_endpoints (id, workspace_id, url, events, enabled, secret, created_at, updated_at)
    values (${endpoint}, ${workspace}, 'https://hooks.example.com/x', '["*"]', 1, 'whsec_x', ${old}, ${old})`.execute(db);
  const payload = JSON.stringify({ staffId: '6f1c0c39-5d0b-4c9e-9d0c-1b8f1f0a2b3c', status: 'accepted', note: 'x'.repeat(120) });
  const body = JSON.stringify({ id: 'evt', type: 'shift.ended', data: { note: 'x'.repeat(400) } });
  const started = Date.now();
  await sql`${series(commands)} insert into commands (id, workspace_id, type, actor_type, actor_id, request_id, payload, created_at)
    select ${id('c')}, ${workspace}, 'submission.accept', 'user', 'user-1', 'req_0000000000000000', ${payload}, ${at} + i from n`.execute(db);
  await sql`${series(commands)} insert into events (id, workspace_id, command_id, type, payload, created_at)
    select ${id('e')}, ${workspace}, ${id('c')}, 'submission.accepted', ${payload}, ${at} + i from n`.execute(db);
  await sql`${series(webhookEvents)} insert into webhook_events (id, workspace_id, type, environment, body, created_at)
    select ${id('v')}, ${workspace}, 'shift.ended', 'live', ${body}, ${at} + i from n`.execute(db);
  await sql`${series(webhookEvents)} insert into webhook_deliveries (id, event_id, endpoint_id, workspace_id, status, attempts,
      next_attempt_at, expires_at, last_status, last_duration_ms, created_at, updated_at, delivered_at)
    select ${id('d')}, ${id('v')}, ${endpoint}, ${workspace}, 'delivered', 2, ${at} + i, ${at} + i + ${DAY}, 200, 12,
      ${at} + i, ${at} + i, ${at} + i from n`.execute(db);
  for (const attempt of [1, 2]) {
    await sql`${series(webhookEvents)} insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status, response_excerpt)
      select ${id(`a${attempt}`)}, ${id('d')}, ${attempt}, ${at} + i, 12,
        ${attempt === 1 ? 503 : 200}, 'ok' from n`.execute(db);
  }
  if (kind === 'postgres') await sql`analyze`.execute(db);
  log(`filled ${commands * 2 + webhookEvents * 4} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * Milliseconds per batch of each table at each size: median, p90 and longest of BATCHES_PER_SIZE rounds. A round
 * deletes a batch of every table in the job's order, sized so that each frees what the next deletes (two attempts
 * a delivery): a batch of a parent never scans past children the sweep left.
 */
async function sweep(db: Kysely<Database>, cutoff: number) {
  const lines: string[] = [];
  for (const size of SIZES) {
    const times = new Map<PrunedTable, number[]>(PRUNED_TABLES.map((table) => [table, []]));
    for (let i = 0; i < BATCHES_PER_SIZE; i++) {
      for (const table of PRUNED_TABLES) {
        const start = performance.now();
        await BATCH[table](db, cutoff, table === 'webhook_attempts' ? 2 * size : size);
        times.get(table)?.push(performance.now() - start);
      }
    }
    for (const [table, list] of times) {
      list.sort((a, b) => a - b);
      const at = (q: number) => (list[Math.min(list.length - 1, Math.floor(list.length * q))] ?? 0).toFixed(1);
      const rows = table === 'webhook_attempts' ? 2 * size : size;
      lines.push(`  ${table.padEnd(19)} batch ${String(rows).padStart(4)}: median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${at(1)} ms`);
    }
  }
  return lines;
}

async function remaining(db: Kysely<Database>): Promise<number> {
  let total = 0;
  for (const table of PRUNED_TABLES) {
    const row = await db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  return total;
}

async function main(): Promise<void> {
  const db = await scratchDatabase(kind, 'prune');
  let store: Store | undefined;
  try {
    store = openStore(db.url);
    await migrateToLatest(store);
    const now = Date.now();
    // The sweep deletes up to this many before the job starts: the job still finds `rows` or more.
    const swept = SIZES.reduce((a, b) => a + b, 0) * BATCHES_PER_SIZE * (PRUNED_TABLES.length + 1);
    await fill(store.db, rows + swept, now);
    log(`batch times on ${kind} (this process):`);
    for (const line of await sweep(store.db, now - 180 * DAY)) log(line);
    const old = await remaining(store.db);
    await store.close();
    store = undefined;

    const server = await startServer({ databaseUrl: db.url, logPath: join(tmpdir(), `wsg-bench-prune-${process.pid}.log`), env: { RETENTION_DAYS: '180' } });
    const started = Date.now();
    const reader = openStore(db.url);
    try {
      // The job starts a minute after the server (a little less after it answers): the event loop is measured
      // idle from 30 s to 45 s (the machine's own noise), then from 45 s until the job has deleted every old row.
      const oldest = () => reader.db.selectFrom('webhook_attempts').select('id').orderBy('started_at').limit(1).executeTakeFirst();
      const first = await oldest();
      await sleep(Math.max(0, started + 30_000 - Date.now()));
      await server.eventLoop.reset();
      await sleep(Math.max(0, started + 45_000 - Date.now()));
      const idle = await server.eventLoop.read();
      await server.eventLoop.reset();
      let slowestHealth = 0;
      let polling = true;
      const poll = (async () => {
        while (polling) {
          const start = performance.now();
          await (await fetch(`${server.baseUrl}/health`)).arrayBuffer();
          slowestHealth = Math.max(slowestHealth, performance.now() - start);
          await sleep(50);
        }
      })();
      // Cheap checks by index: counting a million rows while the job runs would load the machine the delay is
      // measured on. The job has started when the oldest attempt is gone; it is done when no old command is left
      // (commands are pruned last).
      while ((await oldest())?.id === first?.id) await sleep(100);
      const pruneStart = Date.now();
      for (;;) {
        const left = await reader.db.selectFrom('commands').select('id').limit(1).execute();
        if (left.length === 0) break;
        if (Date.now() - started > 30 * 60_000) throw new Error('the job left old commands after 30 minutes');
        await sleep(250);
      }
      polling = false;
      await poll;
      const delay = await server.eventLoop.read();
      const seconds = (Date.now() - pruneStart) / 1000;
      const line =
        `${kind}: the job (batch ${PRUNE_BATCH}) deleted ${old} rows in about ${seconds.toFixed(0)} s (${Math.round(old / seconds)} rows/s); ` +
        `event-loop delay while it ran: p50 ${delay.p50} ms, p99 ${delay.p99} ms, max ${delay.max} ms (${delay.samples} samples); ` +
        `idle before it: p99 ${idle.p99} ms, max ${idle.max} ms; slowest GET /health while it ran ${slowestHealth.toFixed(1)} ms`;
      process.stdout.write(`${line}\n`);
    } finally {
      await reader.close();
      await server.stop();
    }
  } finally {
    await store?.close();
    await db.drop();
  }
}

await main();
