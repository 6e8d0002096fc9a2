import { sql, type SqlBool } from 'kysely';
import pg from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { errorResponse } from '../../src/http/idempotency.ts';
import {
  advisoryLockKey,
  createIdempotency,
  defineFusedWrite,
  type FusedEffect,
  type FusedWriteRun,
  type Idempotency,
  type IdempotentCall,
  type IdempotentOutcome,
  type StoredResponse,
} from '../../src/idempotency/index.ts';
import { newId, newRequestId } from '../../src/ids.ts';
import { STORE_KINDS, type TestDatabase, withTestStore } from '../helpers/stores.ts';
import { workspaceRow } from '../helpers/rows.ts';

const T0 = Date.parse('2026-03-11T12:00:00Z');

type BumpParams = { readonly id: string; readonly below: number };

type NameParams = { readonly expectedName: string };

/** Moves the workspace's activity_version up by one while it is below `below`. */
const bumpEffect: FusedEffect<BumpParams> = (db, p, keyFree) =>
  db
    .updateTable('workspaces')
    .set((eb) => ({ activity_version: eb('activity_version', '+', 1) }))
    .where('id', '=', p('id'))
    .where('activity_version', '<', p('below'))
    .where(keyFree)
    .returning('id');

/**
 * A fused write with a visible count: it moves the workspace's activity_version up by one, only while the
 * version is below `below` (so a test can make the effect not qualify); its condition, when a run gives its
 * values, is that the workspace has the expected name.
 */
const bumpVersion = defineFusedWrite<BumpParams, NameParams>({
  name: 'test version bump',
  effect: bumpEffect,
  condition: (p) => sql<SqlBool>`exists (select 1 from workspaces where name = ${p('expectedName')})`,
});

/** The same effect, declared without a condition. */
const bumpVersionPlain = defineFusedWrite<BumpParams>({
  name: 'test version bump without condition',
  effect: bumpEffect,
});

describe.each(STORE_KINDS)('fused writes (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  let idempotency: Idempotency;
  const clock = new ManualClock(T0);

  withTestStore(kind, (opened, made) => {
    store = opened;
    database = made;
  });
  beforeAll(async () => {
    idempotency = createIdempotency({ store, clock, errorResponse });
  });

  function call(key: string, body: unknown = { a: 1 }): IdempotentCall {
    return { scope: 'app:a1:live', key, method: 'POST', path: '/v1/things', body, requestId: newRequestId() };
  }

  async function workspace(): Promise<string> {
    const id = newId();
    await store.db.insertInto('workspaces').values(workspaceRow(id, 'fused', T0)).execute();
    return id;
  }

  async function version(id: string): Promise<number> {
    const row = await store.db.selectFrom('workspaces').select('activity_version').where('id', '=', id).executeTakeFirstOrThrow();
    return Number(row.activity_version);
  }

  /** What a feature does: the fused write, else the full operation. */
  async function runWith(
    c: IdempotentCall,
    operation: Parameters<Idempotency['run']>[1],
    fused: FusedWriteRun<BumpParams, NameParams>,
  ): Promise<IdempotentOutcome> {
    return (await idempotency.tryFused(c, fused)) ?? idempotency.run(c, operation);
  }

  function fusedRun(id: string, below = 1_000_000): FusedWriteRun<BumpParams, NameParams> {
    return { write: bumpVersion, params: { id, below }, response: { status: 200, body: { predicted: id } }, row: id };
  }

  /** The full operation: counts its runs, and makes the same change as the fused write. */
  function fullOperation(id: string, runs: { count: number }) {
    return async (trx: Parameters<Parameters<Idempotency['run']>[1]>[0]): Promise<StoredResponse> => {
      runs.count += 1;
      await trx
        .updateTable('workspaces')
        .set((eb) => ({ activity_version: eb('activity_version', '+', 1) }))
        .where('id', '=', id)
        .execute();
      return { status: 200, body: { full: id } };
    };
  }

  it('applies the effect and stores the predicted response without running the full operation', async () => {
    const id = await workspace();
    const runs = { count: 0 };
    const first = await runWith(call('apply-1'), fullOperation(id, runs), fusedRun(id));
    expect(first).toEqual({ response: { status: 200, body: { predicted: id } }, replayed: false });
    expect(runs.count).toBe(0);
    expect(await version(id)).toBe(1);

    // A replay (with or without the fused write) returns the stored response and changes nothing.
    const replay = await runWith(call('apply-1'), fullOperation(id, runs), fusedRun(id));
    expect(replay).toEqual({ response: { status: 200, body: { predicted: id } }, replayed: true });
    expect((await idempotency.run(call('apply-1'), fullOperation(id, runs))).replayed).toBe(true);
    expect(runs.count).toBe(0);
    expect(await version(id)).toBe(1);
  });

  it('runs the full operation when the effect does not qualify', async () => {
    const id = await workspace();
    const runs = { count: 0 };
    const outcome = await runWith(call('fallback-1'), fullOperation(id, runs), fusedRun(id, 0));
    expect(outcome).toEqual({ response: { status: 200, body: { full: id } }, replayed: false });
    expect(runs.count).toBe(1);
    expect(await version(id)).toBe(1);
    expect((await runWith(call('fallback-1'), fullOperation(id, runs), fusedRun(id))).response.body).toEqual({
      full: id,
    });
    expect(await version(id)).toBe(1);
  });

  it('never applies under a key that already has a result, or with a different request under it', async () => {
    const id = await workspace();
    const runs = { count: 0 };
    await idempotency.run(call('settled-1'), fullOperation(id, runs));
    expect(await version(id)).toBe(1);
    const replay = await runWith(call('settled-1'), fullOperation(id, runs), fusedRun(id));
    expect(replay).toEqual({ response: { status: 200, body: { full: id } }, replayed: true });
    await expect(runWith(call('settled-1', { other: true }), fullOperation(id, runs), fusedRun(id))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect(runs.count).toBe(1);
    expect(await version(id)).toBe(1);
  });

  it('checks the declared condition in the same statement when a run gives its values', async () => {
    const id = await workspace();
    const runs = { count: 0 };
    const refused = { ...fusedRun(id), conditionParams: { expectedName: 'no such workspace' } };
    const fallback = await runWith(call('condition-1'), fullOperation(id, runs), refused);
    expect(fallback.response.body).toEqual({ full: id });
    expect(runs.count).toBe(1);
    const held = { ...fusedRun(id), conditionParams: { expectedName: 'fused' } };
    const applied = await runWith(call('condition-2'), fullOperation(id, runs), held);
    expect(applied.response.body).toEqual({ predicted: id });
    expect(runs.count).toBe(1);
    expect(await version(id)).toBe(2);
  });

  it('a run that gives condition values to a write declared without a condition is refused, nothing written', async () => {
    const id = await workspace();
    const run = {
      write: bumpVersionPlain,
      params: { id, below: 1_000_000 },
      conditionParams: { expectedName: 'fused' },
      response: { status: 200, body: {} },
      row: id,
    } as unknown as FusedWriteRun<BumpParams>;
    await expect(idempotency.tryFused(call('undeclared-1'), run)).rejects.toThrow(/declares no condition/);
    expect(await version(id)).toBe(0);
    expect(await idempotency.tryFused(call('undeclared-2'), { ...run, conditionParams: undefined })).toEqual({
      response: { status: 200, body: {} },
      replayed: false,
    });
    expect(await version(id)).toBe(1);
  });

  it('ten identical concurrent requests produce exactly one effect', async () => {
    const id = await workspace();
    const runs = { count: 0 };
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => runWith(call('burst-1'), fullOperation(id, runs), fusedRun(id))),
    );
    expect(results.filter((r) => r.status === 'fulfilled' && !r.value.replayed)).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'fulfilled') expect(r.value.response).toEqual({ status: 200, body: { predicted: id } });
      else expect(r.reason).toMatchObject({ code: 'idempotency_request_in_progress' });
    }
    expect(await version(id)).toBe(1);
  });

  it('concurrent requests with different keys each apply once', async () => {
    const id = await workspace();
    const runs = { count: 0 };
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runWith(call(`many-${i}`), fullOperation(id, runs), fusedRun(id))),
    );
    expect(outcomes.every((o) => !o.replayed)).toBe(true);
    expect(runs.count).toBe(0);
    expect(await version(id)).toBe(20);
  });

  if (kind === 'postgres') {
    it('does not apply while another instance holds the key (409), and applies once it is released', async () => {
      const id = await workspace();
      const runs = { count: 0 };
      const held = call('held-1');
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('select pg_advisory_xact_lock($1::bigint)', [advisoryLockKey(held.scope, 'held-1')]);
      await expect(runWith(held, fullOperation(id, runs), fusedRun(id))).rejects.toMatchObject({
        code: 'idempotency_request_in_progress',
      });
      expect(await version(id)).toBe(0);
      await holder.query('commit');
      await holder.end();
      expect((await runWith(held, fullOperation(id, runs), fusedRun(id))).replayed).toBe(false);
      expect(runs.count).toBe(0);
      expect(await version(id)).toBe(1);
    });

    it('concurrent fused writes on different rows commit together, many in one statement', async () => {
      const ids = await Promise.all(Array.from({ length: 30 }, () => workspace()));
      const runs = { count: 0 };
      // All thirty arrive at once: the first two run alone (two statements in flight), the rest wait for them
      // and then go together.
      const outcomes = await Promise.all(
        ids.map((id, i) => runWith(call(`together-${i}`), fullOperation(id, runs), fusedRun(id))),
      );
      expect(outcomes.every((o) => !o.replayed && o.response.status === 200)).toBe(true);
      expect(runs.count).toBe(0);
      for (const id of ids) expect(await version(id)).toBe(1);
      // Rows a transaction wrote carry its id: thirty records from at most four transactions.
      const { rows } = await sql<{ transactions: number; records: number }>`
        select count(distinct xmin::text)::integer as transactions, count(*)::integer as records
        from idempotency_records where key like 'together-%'`.execute(store.db);
      expect(rows[0]).toEqual({ transactions: expect.any(Number) as number, records: 30 });
      expect(rows[0]?.transactions).toBeLessThanOrEqual(4);
    });

    it('a batch whose statement fails commits nothing of itself; each of its fused writes is then applied alone', async () => {
      await sql`create function refuse_poison() returns trigger language plpgsql as $$
        begin
          if new.key = 'poison' then raise exception 'poisoned record'; end if;
          return new;
        end $$`.execute(store.db);
      await sql`create trigger refuse_poison before insert on idempotency_records
        for each row execute function refuse_poison()`.execute(store.db);
      try {
        const ids = await Promise.all(Array.from({ length: 8 }, () => workspace()));
        const runs = { count: 0 };
        const keys = ids.map((_, i) => (i === 5 ? 'poison' : `batch-${i}`));
        const results = await Promise.allSettled(
          ids.map((id, i) => runWith(call(keys[i] ?? ''), fullOperation(id, runs), fusedRun(id))),
        );
        results.forEach((result, i) => {
          if (keys[i] === 'poison') expect(result).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('poisoned') as string } });
          else expect(result).toMatchObject({ status: 'fulfilled', value: { replayed: false } });
        });
        expect(runs.count).toBe(0);
        for (const [i, id] of ids.entries()) expect(await version(id)).toBe(keys[i] === 'poison' ? 0 : 1);
        const stored = await store.db.selectFrom('idempotency_records').select('key').where('key', 'in', keys).execute();
        expect(stored.map((r) => r.key).sort()).toEqual(keys.filter((k) => k !== 'poison').sort());
      } finally {
        await sql`drop trigger refuse_poison on idempotency_records`.execute(store.db);
        await sql`drop function refuse_poison()`.execute(store.db);
      }
    });

    it('a result committed by another instance after the statement began is replayed, not applied again', async () => {
      // The record appears between the statement's snapshot and its insert: simulated by committing the record
      // while this instance's statement waits for the row lock another session holds.
      const id = await workspace();
      const runs = { count: 0 };
      const racing = call('race-1');
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      await other.query('begin');
      await other.query('update workspaces set name = name where id = $1', [id]);
      // Its refusal may come before the other session is closed: caught at once (not an unhandled rejection).
      const pending = runWith(racing, fullOperation(id, runs), fusedRun(id)).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.query(
        `insert into idempotency_records
           (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
         values ($1, $2, 'another request', 'completed', 200, '{}', 'req_other', $3, 0)`,
        [racing.scope, 'race-1', clock.now()],
      );
      await other.query('commit');
      await other.end();
      // The other instance stored its result under another fingerprint: this request is then a different
      // request under a used key.
      expect(await pending).toMatchObject({ code: 'idempotency_key_reused' });
      expect(runs.count).toBe(0);
      expect(await version(id)).toBe(0);
    });
  }
});
