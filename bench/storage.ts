/**
 * What each operation adds to the database (docs/OPERATING.md, "Storage"): `npm run bench:storage -- [--store
 * sqlite|postgres] [--ops N]`. Provisions a workspace (200 staff, one live key, one open form, one webhook
 * endpoint for every event, delivered to a receiver here), starts the real gateway (`serve`), and for each
 * operation measures every table's size before and after N of them through the HTTP API, once the webhook
 * outbox has drained: SQLite's pages per table and its indexes (`dbstat`), PostgreSQL's
 * `pg_total_relation_size` (table, indexes and TOAST). Prints the bytes per operation, per table.
 */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import { openStore } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import type { Database } from '../src/db/types.ts';
import { applyProvisioning } from '../src/provisioning/apply.ts';
import { systemClock } from '../src/shared/clock.ts';
import { newId, randomBase62 } from '../src/shared/ids.ts';
import { scratchDatabase } from './scratch-database.ts';
import { startServer } from './server.ts';

const { values } = parseArgs({ options: { store: { type: 'string', default: 'sqlite' }, ops: { type: 'string', default: '1000' } } });
const kind = values.store === 'postgres' ? 'postgres' : 'sqlite';
const ops = Number(values.ops);
const STAFF = 200;
const SECRET = `wsk_live_${randomBase62(40)}`;
const FORM_ID = newId();

async function sizes(db: Kysely<Database>): Promise<Map<string, number>> {
  const query =
    kind === 'sqlite'
      ? sql<{ name: string; bytes: number }>`select coalesce(m.tbl_name, s.name) as name, sum(s.pgsize) as bytes
          from dbstat as s left join sqlite_schema as m on m.name = s.name group by 1`
      : sql<{ name: string; bytes: number }>`select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes
          from pg_class as c where c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace`;
  const { rows } = await query.execute(db);
  return new Map(rows.map((row) => [row.name, Number(row.bytes)]));
}

function delta(before: Map<string, number>, after: Map<string, number>, count: number): Record<string, number> {
  const out: Record<string, number> = {};
  let total = 0;
  for (const [name, bytes] of after) {
    const grown = bytes - (before.get(name) ?? 0);
    if (grown === 0 || name.startsWith('kysely_') || name === 'sqlite_schema') continue;
    out[name] = Math.round(grown / count);
    total += grown;
  }
  out.total = Math.round(total / count);
  return out;
}

async function main(): Promise<void> {
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const address = receiver.address();
  const receiverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  const scratch = await scratchDatabase(kind, 'storage');
  const store = openStore(scratch.url);
  const workspaceId = newId();
  const applicationId = newId();
  const staff = Array.from({ length: STAFF }, (_, i) => ({
    id: newId(),
    displayName: `Staff ${i}`,
    gameUserId: String(10_000 + i),
    gameUsername: `staff_${i}`,
    status: 'active' as const,
  }));
  try {
    await migrateToLatest(store);
    await applyProvisioning(
      store.db,
      {
        workspaces: [
          {
            id: workspaceId,
            name: 'Storage',
            slug: 'storage',
            timezone: 'Europe/Berlin',
            staff,
            applications: [
              {
                id: applicationId,
                name: 'Game',
                approved: true,
                allowedUniverseIds: ['42'],
                features: { activity: true, applications: true },
                keys: [{ id: newId(), environment: 'live', scopes: ['activity:write', 'applications:write'], secret: SECRET }],
              },
            ],
            forms: [
              {
                id: FORM_ID,
                name: 'Moderator application',
                slug: 'moderator',
                status: 'open',
                questions: [
                  { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true, maxLength: 2000 },
                  { id: 'age', label: 'How old are you?', type: 'number', required: true, min: 13, max: 99 },
                  { id: 'tz', label: 'Time zone', type: 'choice', options: ['EU', 'NA', 'Asia'] },
                ],
              },
            ],
            webhooks: [{ id: newId(), url: receiverUrl, events: ['*'] }],
          },
        ],
      },
      systemClock,
    );
    const server = await startServer({ databaseUrl: scratch.url, logPath: join(tmpdir(), `wsg-bench-storage-${process.pid}.log`) });
    const post = async (path: string, body?: unknown) => {
      const res = await fetch(`${server.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${SECRET}`,
          'idempotency-key': `k-${randomBase62(20)}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
      return JSON.parse(text) as { data: { id?: string; shift?: { id: string } } };
    };
    const drained = async () => {
      for (;;) {
        const row = await store.db
          .selectFrom('webhook_deliveries')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('status', '=', 'pending')
          .executeTakeFirstOrThrow();
        if (Number(row.n) === 0) return;
        await sleep(100);
      }
    };
    const measure = async (name: string, count: number, run: () => Promise<void>) => {
      await drained();
      const before = await sizes(store.db);
      await run();
      await drained();
      if (kind === 'sqlite') await sleep(200);
      const after = await sizes(store.db);
      process.stdout.write(`${kind} ${name} (${count}): ${JSON.stringify(delta(before, after, count))}\n`);
    };
    try {
      const start = (member: (typeof staff)[number]) =>
        post('/v1/activity/shifts/start', { gameUserId: member.gameUserId, universeId: '42', placeId: '7', serverId: 'srv-1' });
      const cycles = Math.min(ops, 1000);
      await measure('start+stop', cycles, async () => {
        for (let i = 0; i < cycles; i++) {
          const started = await start(staff[i % STAFF] as (typeof staff)[number]);
          const id = started.data.id ?? started.data.shift?.id ?? '';
          await post(`/v1/activity/shifts/${id}/stop`);
        }
      });
      const shiftIds: string[] = [];
      for (const member of staff) {
        const started = await start(member);
        shiftIds.push(started.data.id ?? started.data.shift?.id ?? '');
      }
      await measure('heartbeat', ops, async () => {
        for (let i = 0; i < ops; i++) await post(`/v1/activity/shifts/${shiftIds[i % STAFF] ?? ''}/heartbeat`);
      });
      const batches = Math.max(1, Math.round(ops / 10));
      await measure('batch of 50', batches, async () => {
        for (let i = 0; i < batches; i++) {
          const from = (i * 50) % STAFF;
          await post('/v1/activity/shifts/heartbeats', { serverId: 'srv-1', shiftIds: shiftIds.slice(from, from + 50) });
        }
      });
      await measure('intake', ops, async () => {
        for (let i = 0; i < ops; i++) {
          await post(`/v1/applications/forms/${FORM_ID}/submissions`, {
            applicant: { gameUserId: String(1_000_000 + i), gameUsername: `applicant_${i}`, displayName: `Applicant ${i}` },
            answers: { why: 'I have moderated two other communities and want to help here, most evenings.', age: 19, tz: 'EU' },
          });
        }
      });
    } finally {
      await server.stop();
    }
  } finally {
    await store.close();
    await scratch.drop();
    receiver.close();
  }
}

await main();
