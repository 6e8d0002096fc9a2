import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { AppError, RefusalAfterWrites } from '../../src/shared/errors.ts';
import pg from 'pg';
import { errorResponse } from '../../src/http/write-pipeline.ts';
import {
  canonicalJson,
  createIdempotency,
  fingerprintOf,
  IDEMPOTENCY_RETENTION_MS,
  purgeExpiredRecords,
  type Idempotency,
  type IdempotentCall,
  type KnownChange,
  type StoredResponse,
} from '../../src/idempotency/index.ts';
import { storeResult } from '../../src/idempotency/records.ts';
import { newId, newRequestId } from '../../src/shared/ids.ts';
import { advisoryLockKey } from '../helpers/postgres.ts';
import { STORE_KINDS, type TestDatabase, withTestStore } from '../helpers/stores.ts';
import { workspaceRow } from '../helpers/rows.ts';

const T0 = Date.parse('2026-03-11T12:00:00Z');

describe.each(STORE_KINDS)('idempotency mechanism (%s)', (kind) => {
  let database: TestDatabase;
  let store: Store;
  const clock = new ManualClock(T0);

  withTestStore(kind, (opened, made) => {
    store = opened;
    database = made;
  });

  let shared: Idempotency | undefined;
  /** One instance per store, as the app has. */
  const idempotency = () => (shared ??= createIdempotency({ store, clock, errorResponse }));

  function call(key: string, body: unknown = { a: 1 }, path = '/v1/things'): IdempotentCall {
    return { scope: 'user:u1', key, method: 'POST', path, body, requestId: newRequestId() };
  }

  /** An operation with a real effect: one workspace row per execution. */
  function insertWorkspace(slug: string) {
    return async (trx: Parameters<Parameters<ReturnType<typeof idempotency>['run']>[1]>[0]): Promise<StoredResponse> => {
      const id = newId();
      await trx.insertInto('workspaces').values(workspaceRow(id, slug, clock.now(), { slug: `${slug}-${id}` })).execute();
      return { status: 200, body: { id } };
    };
  }

  async function countWorkspaces(name: string): Promise<number> {
    const row = await store.db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('name', '=', name)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  it('a missing or empty key is idempotency_key_required', async () => {
    for (const key of [undefined, '']) {
      await expect(idempotency().run(call(key as string), insertWorkspace('x'))).rejects.toMatchObject({
        code: 'idempotency_key_required',
      });
    }
  });

  it('a key over 255 characters or with control characters is invalid_idempotency_key', async () => {
    for (const key of ['k'.repeat(256), 'bad\tkey', 'bad\u00e9']) {
      await expect(idempotency().run(call(key), insertWorkspace('x'))).rejects.toMatchObject({
        code: 'invalid_idempotency_key',
      });
    }
  });

  it('the same key and request replays the stored result without a second effect', async () => {
    const first = await idempotency().run(call('replay-1'), insertWorkspace('replay'));
    const second = await idempotency().run(call('replay-1'), insertWorkspace('replay'));
    expect(first.replayed).toBe(false);
    expect(second.replayed).toBe(true);
    expect(second.response).toEqual(first.response);
    expect(await countWorkspaces('replay')).toBe(1);
  });

  it('the same JSON with keys in another order is the same request', async () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } })).toBe(
      canonicalJson({ a: { c: [3, { e: 0, f: 1 }], d: 2 }, b: 1 }),
    );
    await idempotency().run(call('order-1', { x: 1, y: 2 }), insertWorkspace('order'));
    const again = await idempotency().run(call('order-1', { y: 2, x: 1 }), insertWorkspace('order'));
    expect(again.replayed).toBe(true);
  });

  it('the same key with another body or path is idempotency_key_reused', async () => {
    await idempotency().run(call('reuse-1', { a: 1 }), insertWorkspace('reuse'));
    await expect(idempotency().run(call('reuse-1', { a: 2 }), insertWorkspace('reuse'))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    await expect(
      idempotency().run(call('reuse-1', { a: 1 }, '/v1/other'), insertWorkspace('reuse')),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    expect(await countWorkspaces('reuse')).toBe(1);
  });

  it('keys are scoped to their principal', async () => {
    await idempotency().run(call('scoped-1'), insertWorkspace('scoped'));
    const other = await idempotency().run({ ...call('scoped-1'), scope: 'user:u2' }, insertWorkspace('scoped'));
    expect(other.replayed).toBe(false);
    expect(await countWorkspaces('scoped')).toBe(2);
  });

  it('a duplicate while the first is in flight is idempotency_request_in_progress', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered!: () => void;
    const started = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const slow = idempotency().run(call('inflight-1'), async (trx) => {
      entered();
      await gate;
      return insertWorkspace('inflight')(trx);
    });
    await started;
    const duplicate = idempotency().run(call('inflight-1'), insertWorkspace('inflight'));
    await expect(duplicate).rejects.toMatchObject({ code: 'idempotency_request_in_progress' });
    // SQLite knows the in-flight request's body (one process); PostgreSQL cannot judge another instance's
    // request before it commits, so a different body is refused as in progress too, and as reused after.
    const different = idempotency().run(call('inflight-1', { other: true }), insertWorkspace('inflight'));
    await expect(different).rejects.toMatchObject({
      code: kind === 'sqlite' ? 'idempotency_key_reused' : 'idempotency_request_in_progress',
    });
    release();
    await slow;
    await expect(idempotency().run(call('inflight-1', { other: true }), insertWorkspace('inflight'))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
    });
    expect((await idempotency().run(call('inflight-1'), insertWorkspace('inflight'))).replayed).toBe(true);
    expect(await countWorkspaces('inflight')).toBe(1);
  });

  it('concurrent replays of a settled key replay it (PostgreSQL: all of them, none waits for another)', async () => {
    const first = await idempotency().run(call('settled-1'), insertWorkspace('settled'));
    const replays = await Promise.allSettled(
      Array.from({ length: 10 }, () => idempotency().run(call('settled-1'), insertWorkspace('settled'))),
    );
    // SQLite tracks keys in flight in the process, before reading the record: a replay in flight makes its
    // duplicates 409, as any request in flight does.
    const replayed = replays.filter((r) => r.status === 'fulfilled');
    expect(replayed.length).toBe(kind === 'postgres' ? 10 : replayed.length);
    expect(replayed.length).toBeGreaterThan(0);
    for (const r of replays) {
      if (r.status === 'fulfilled') {
        expect(r.value.replayed).toBe(true);
        expect(r.value.response).toEqual(first.response);
      } else {
        expect(r.reason).toMatchObject({ code: 'idempotency_request_in_progress' });
      }
    }
    expect(await countWorkspaces('settled')).toBe(1);
  });

  it('a 4xx outcome is stored and replayed with its original body', async () => {
    const failing = async (): Promise<StoredResponse> => {
      throw new AppError('not_found', 'The thing was not found.');
    };
    const first = await idempotency().run(call('err-1'), failing);
    expect(first.response.status).toBe(404);
    const again = await idempotency().run(call('err-1'), insertWorkspace('err'));
    expect(again.replayed).toBe(true);
    expect(again.response).toEqual(first.response);
    expect(await countWorkspaces('err')).toBe(0);
  });

  it('a failed operation leaves no partial write', async () => {
    const partial = async (trx: Parameters<ReturnType<typeof insertWorkspace>>[0]): Promise<StoredResponse> => {
      await insertWorkspace('partial')(trx);
      throw new AppError('submission_finalized', 'Too late.');
    };
    const outcome = await idempotency().run(call('partial-1'), partial);
    expect(outcome.response.status).toBe(422);
    expect(await countWorkspaces('partial')).toBe(0);
  });

  it('a 5xx outcome is not kept: the client may retry with the same key', async () => {
    await expect(
      idempotency().run(call('boom-1'), async () => {
        throw new Error('database went away');
      }),
    ).rejects.toThrow('database went away');
    const retry = await idempotency().run(call('boom-1'), insertWorkspace('boom'));
    expect(retry.replayed).toBe(false);
    expect(await countWorkspaces('boom')).toBe(1);
  });

  // PostgreSQL only: SQLite has no sessions to die (its in-flight keys live in the process that runs them).
  if (kind === 'postgres') it('a key held by a session that dies is free at once (no lock to wait out)', async () => {
    const held = call('held-1');
    const holder = new pg.Client({ connectionString: database.url });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('begin');
    await holder.query('select pg_advisory_xact_lock($1::bigint)', [advisoryLockKey(held.scope, 'held-1')]);
    await expect(idempotency().run(held, insertWorkspace('held'))).rejects.toMatchObject({
      code: 'idempotency_request_in_progress',
    });
    // The holder's instance is killed: the database ends its session, and the lock with it.
    const { rows } = await holder.query<{ pid: number }>('select pg_backend_pid() as pid');
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    // Waits (up to 5 s) until the session has ended: the signal alone returns before the locks are released.
    await admin.query('select pg_terminate_backend($1, 5000)', [rows[0]?.pid]);
    await admin.end();
    await holder.end().catch(() => undefined);
    const outcome = await idempotency().run(held, insertWorkspace('held'));
    expect(outcome.replayed).toBe(false);
    expect(await countWorkspaces('held')).toBe(1);
  });

  // PostgreSQL only: its first read of a key runs in a snapshot taken before the key's lock was granted, so a
  // duplicate that committed in between is not in it. Here the other request's record is committed from another
  // session while the operation runs, which is later still: storing the result must find it all the same.
  if (kind === 'postgres') {
    async function commitRecordFromAnotherSession(completed: IdempotentCall, body: unknown): Promise<void> {
      const other = new pg.Client({ connectionString: database.url });
      await other.connect();
      try {
        await other.query(
          `insert into idempotency_records (scope, key, fingerprint, state, response_status, response_body, request_id,
             created_at, locked_until) values ($1, $2, $3, 'completed', 200, $4, $5, $6, 0)`,
          [completed.scope, completed.key, fingerprintOf(completed), JSON.stringify(body), completed.requestId, clock.now()],
        );
      } finally {
        await other.end();
      }
    }

    it('a duplicate that completed the key after the first read is replayed, and this run leaves nothing', async () => {
      const mine = call('raced-1');
      const outcome = await idempotency().run(mine, async (trx) => {
        const result = await insertWorkspace('raced')(trx);
        await commitRecordFromAnotherSession(call('raced-1'), { id: 'theirs' });
        return result;
      });
      expect(outcome).toMatchObject({ replayed: true, response: { status: 200, body: { id: 'theirs' } } });
      expect(await countWorkspaces('raced')).toBe(0);
    });

    it('a different request that completed the key after the first read makes this one idempotency_key_reused', async () => {
      const mine = call('raced-2');
      const attempt = idempotency().run(mine, async (trx) => {
        const result = await insertWorkspace('raced-other')(trx);
        await commitRecordFromAnotherSession(call('raced-2', { other: true }), { id: 'theirs' });
        return result;
      });
      await expect(attempt).rejects.toMatchObject({ code: 'idempotency_key_reused' });
      expect(await countWorkspaces('raced-other')).toBe(0);
    });
  }

  it('results are kept 24 hours, then the key is fresh and the purge removes them', async () => {
    await idempotency().run(call('expire-1'), insertWorkspace('expire'));
    clock.advance(IDEMPOTENCY_RETENTION_MS - 1000);
    expect((await idempotency().run(call('expire-1'), insertWorkspace('expire'))).replayed).toBe(true);
    clock.advance(2000);
    const purged = await idempotency().purgeExpired();
    expect(purged).toBeGreaterThan(0);
    const fresh = await idempotency().run(call('expire-1', { different: true }), insertWorkspace('expire'));
    expect(fresh.replayed).toBe(false);
    expect(await countWorkspaces('expire')).toBe(2);
  });

  it('the purge deletes in bounded steps until nothing expired is left, and keeps what is not expired', async () => {
    const row = (key: string, createdAt: number) => ({
      scope: 'purge-steps',
      key,
      fingerprint: 'f',
      state: 'completed',
      response_status: 200,
      response_body: '{}',
      request_id: newRequestId(),
      created_at: createdAt,
      locked_until: createdAt,
    });
    const expiredAt = clock.now() - IDEMPOTENCY_RETENTION_MS - 1;
    await store.db
      .insertInto('idempotency_records')
      .values([
        ...Array.from({ length: 7 }, (_, i) => row(`old-${i}`, expiredAt - i)),
        row('young-1', clock.now()),
        row('young-2', clock.now() - IDEMPOTENCY_RETENTION_MS + 1),
      ])
      .execute();
    expect(await purgeExpiredRecords(store.db, clock, 3)).toBeGreaterThanOrEqual(7);
    const left = await store.db.selectFrom('idempotency_records').select('key').where('scope', '=', 'purge-steps').orderBy('key').execute();
    expect(left.map((r) => r.key)).toEqual(['young-1', 'young-2']);
  });

  it('concurrent writes with different keys each apply atomically: a failing one undoes only itself', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        idempotency().run(call(`mixed-${i}`), async (trx) => {
          const response = await insertWorkspace(i % 2 === 0 ? 'mixed-ok' : 'mixed-bad')(trx);
          if (i % 2 === 1) throw new AppError('submission_finalized', 'undo me');
          return response;
        }),
      ),
    );
    expect(outcomes.map((o) => o.response.status)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 200 : 422)));
    expect(await countWorkspaces('mixed-ok')).toBe(10);
    expect(await countWorkspaces('mixed-bad')).toBe(0);
  });

  it('ten identical concurrent requests produce exactly one effect', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => idempotency().run(call('burst-1'), insertWorkspace('burst'))),
    );
    const fresh = results.filter((r) => r.status === 'fulfilled' && !r.value.replayed);
    expect(fresh).toHaveLength(1);
    for (const r of results) {
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'idempotency_request_in_progress' });
    }
    expect(await countWorkspaces('burst')).toBe(1);
  });
  it('a refusal after writes keeps its writes and is stored and replayed as the refusal', async () => {
    const first = await idempotency().run(call('after-1'), async (trx) => {
      await insertWorkspace('after')(trx);
      return new RefusalAfterWrites(new AppError('shift_not_active', 'The shift has ended.'));
    });
    expect(first.response.status).toBe(409);
    expect(await countWorkspaces('after')).toBe(1);
    const again = await idempotency().run(call('after-1'), insertWorkspace('after'));
    expect(again).toEqual({ response: first.response, replayed: true });
    expect(await countWorkspaces('after')).toBe(1);
  });

  describe('a known write (applyKnown)', () => {
    /** Inserts a workspace named `slug` with the stored result, both or neither; `applies: false` changes nothing. */
    function knownWorkspace(applies: boolean): KnownChange<string> {
      const insert = (trx: Parameters<ReturnType<typeof insertWorkspace>>[0], slug: string) =>
        trx.insertInto('workspaces').values(workspaceRow(newId(), slug, clock.now(), { slug: `${slug}-${newId()}` })).execute();
      return {
        async apply(trx, slug) {
          if (!applies) return false;
          await insert(trx, slug);
          return true;
        },
        async applyWithResult(slug, result) {
          if (!applies) return false;
          return store.db.transaction().execute(async (trx) => {
            await insert(trx, slug);
            return storeResult(trx, result);
          });
        },
      };
    }
    const known: StoredResponse = { status: 200, body: { known: true } };

    it('applies with its stored result: the same request again is a replay, nothing runs twice', async () => {
      const outcome = await idempotency().applyKnown(call('known-1'), known, knownWorkspace(true), 'known');
      expect(outcome).toEqual({ response: known, replayed: false });
      expect(await countWorkspaces('known')).toBe(1);
      const again = await idempotency().run(call('known-1'), insertWorkspace('known'));
      expect(again).toEqual({ response: known, replayed: true });
      expect(await countWorkspaces('known')).toBe(1);
    });

    it('that does not apply writes nothing and leaves the key to the full operation', async () => {
      expect(await idempotency().applyKnown(call('unknown-1'), known, knownWorkspace(false), 'unknown')).toBeNull();
      const full = await idempotency().run(call('unknown-1'), insertWorkspace('unknown'));
      expect(full.replayed).toBe(false);
      expect(await countWorkspaces('unknown')).toBe(1);
    });

    it('is not tried under a key that is missing or malformed: the full operation refuses it', async () => {
      for (const key of [undefined, '', 'x'.repeat(256)]) {
        const outcome = await idempotency().applyKnown({ ...call('k'), key }, known, knownWorkspace(true), 'badkey');
        expect(outcome).toBeNull();
      }
      expect(await countWorkspaces('badkey')).toBe(0);
    });
  });
});
