import pg from 'pg';
import { beforeEach, describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../../src/idempotency/index.ts';
import { newId } from '../../../../src/shared/ids.ts';
import { DEFAULT_NOW } from '../../../helpers/app.ts';
import type { Fixture } from '../../../helpers/fixtures.ts';
import { advisoryLockKey, POSTGRES_URL } from '../../../helpers/postgres.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { dataOf, errorCode, iso, startBody, useShiftWorld } from './shift-client.ts';

/**
 * Resolves once PostgreSQL shows a session waiting for a lock `holder` holds (pg_locks, pg_blocking_pids): the
 * statement of `request` is then blocked behind it. Fails when `request` is answered first, or after 10 s.
 */
async function waitUntilBlockedBy(holder: pg.Client, request: Promise<unknown>): Promise<void> {
  const pid = (await holder.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]?.pid;
  const watcher = new pg.Client({ connectionString: POSTGRES_URL });
  await watcher.connect();
  let answered = false;
  void request.then(
    () => (answered = true),
    () => (answered = true),
  );
  try {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await watcher.query<{ waiting: number }>(
        'select count(*)::int as waiting from pg_locks where not granted and $1::int = any(pg_blocking_pids(pid))',
        [pid],
      );
      if ((rows[0]?.waiting ?? 0) > 0) return;
      if (answered) throw new Error('the request was answered before it waited for the lock');
      if (Date.now() > deadline) throw new Error('no session waited for the lock within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  } finally {
    await watcher.end();
  }
}

/** The idempotency scope of the fixture's test key: its application in the test environment. */
const scopeOf = (fixture: Fixture) => `app:${fixture.ids.applicationId}:test`;

/**
 * A heartbeat under its Idempotency-Key, through the HTTP API: whichever way it commits (one statement with its
 * stored result when its answer is known, or the full operation), it has one effect per key, replays its stored
 * answer, and refuses another request under the key.
 */
describe.each(STORE_KINDS)('heartbeat idempotency (%s)', (kind) => {
  const world = useShiftWorld(kind);
  let shiftId: string;

  beforeEach(async () => {
    shiftId = dataOf<{ shift: { id: string } }>(await world.client.start(startBody(world.fixture))).shift.id;
    world.ctx.clock.advance(5_000);
  });

  async function shiftRow() {
    return world.ctx.store.db.selectFrom('shifts').selectAll().where('id', '=', shiftId).executeTakeFirstOrThrow();
  }

  async function recordsOf(key: string) {
    return world.ctx.store.db.selectFrom('idempotency_records').select(['key', 'response_status']).where('key', '=', key).execute();
  }

  it('replays its stored answer, changing nothing, and refuses another request under its key with 422', async () => {
    const { client, ctx } = world;
    const body = { recordedAt: iso(ctx.clock.now()) };
    const first = await client.heartbeat(shiftId, body, { idempotencyKey: 'hb-replay' });
    expect(dataOf<{ shift: { lastHeartbeatAt: string } }>(first).shift.lastHeartbeatAt).toBe(body.recordedAt);
    const seen = (await shiftRow()).last_seen_at;
    ctx.clock.advance(1_000);
    const replay = await client.heartbeat(shiftId, body, { idempotencyKey: 'hb-replay' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect((await shiftRow()).last_seen_at).toBe(seen);
    const other = await client.heartbeat(shiftId, { recordedAt: iso(ctx.clock.now()) }, { idempotencyKey: 'hb-replay' });
    expect(other.statusCode).toBe(422);
    expect(errorCode(other)).toBe('idempotency_key_reused');
    expect((await shiftRow()).last_seen_at).toBe(seen);
  });

  it('ten identical heartbeats at once have one effect: one stored answer, the others replay it or get 409', async () => {
    const { client, ctx } = world;
    const body = { recordedAt: iso(ctx.clock.now()) };
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.heartbeat(shiftId, body, { idempotencyKey: 'hb-burst' })),
    );
    const fresh = answers.filter((a) => a.statusCode === 200 && a.headers['idempotent-replayed'] === undefined);
    expect(fresh).toHaveLength(1);
    for (const answer of answers) {
      if (answer.statusCode === 200) expect(answer.json()).toEqual(fresh[0]?.json());
      else expect({ status: answer.statusCode, code: errorCode(answer) }).toEqual({ status: 409, code: 'idempotency_request_in_progress' });
    }
    expect(await recordsOf('hb-burst')).toEqual([{ key: 'hb-burst', response_status: 200 }]);
    expect((await shiftRow()).last_heartbeat_at).toBe(ctx.clock.now());
  });

  it('heartbeats of many shifts at once each apply once, with their own stored answer, and replay it', async () => {
    const { client, ctx, fixture } = world;
    // More staff members, each with a shift: heartbeats of different shifts may share one statement (PostgreSQL).
    const gameUserIds = Array.from({ length: 12 }, (_, i) => `many-${i}`);
    await ctx.store.db
      .insertInto('staff')
      .values(
        gameUserIds.map((gameUserId) => ({
          id: newId(),
          workspace_id: fixture.ids.workspaceId,
          display_name: gameUserId,
          game_user_id: gameUserId,
          game_username: gameUserId,
          chat_user_id: null,
          department_id: null,
          rank: null,
          status: 'active',
          weekly_required_minutes: null,
          created_at: ctx.clock.now(),
        })),
      )
      .execute();
    const started = await Promise.all(gameUserIds.map((gameUserId) => client.start(startBody(fixture, { gameUserId }))));
    const ids = [shiftId, ...started.map((res) => dataOf<{ shift: { id: string } }>(res).shift.id)];
    ctx.clock.advance(1_000);
    const body = { recordedAt: iso(ctx.clock.now()) };
    const keyOf = (id: string) => `many-${id}`;
    const send = () => Promise.all(ids.map((id) => client.heartbeat(id, body, { idempotencyKey: keyOf(id) })));
    // Among them, one whose shift has stopped and one whose answer is already stored: neither holds up the rest.
    const [, stoppedId = '', answeredId = ''] = ids;
    expect((await client.stop(stoppedId)).statusCode).toBe(200);
    const earlier = await client.heartbeat(answeredId, body, { idempotencyKey: keyOf(answeredId) });
    const answers = await send();
    answers.forEach((answer, i) => {
      const id = ids[i] ?? '';
      if (id === stoppedId) {
        expect({ status: answer.statusCode, code: errorCode(answer) }).toEqual({ status: 409, code: 'shift_not_active' });
      } else if (id === answeredId) {
        expect(answer.headers['idempotent-replayed']).toBe('true');
        expect(answer.json()).toEqual(earlier.json());
      } else {
        expect(answer.statusCode).toBe(200);
        expect(answer.headers['idempotent-replayed']).toBeUndefined();
        expect(dataOf<{ shift: { id: string; lastHeartbeatAt: string } }>(answer).shift).toMatchObject({ id, lastHeartbeatAt: body.recordedAt });
      }
    });
    const live = ids.filter((id) => id !== stoppedId);
    const rows = await ctx.store.db.selectFrom('shifts').select(['id', 'last_heartbeat_at']).where('id', 'in', live).execute();
    expect(rows.map((row) => Number(row.last_heartbeat_at))).toEqual(live.map(() => ctx.clock.now()));
    for (const id of ids) expect(await recordsOf(keyOf(id))).toEqual([{ key: keyOf(id), response_status: id === stoppedId ? 409 : 200 }]);
    ctx.clock.advance(1_000);
    const replays = await send();
    replays.forEach((replay, i) => {
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.json()).toEqual(answers[i]?.json());
    });
  });

  if (kind === 'postgres') {
    it('while another instance holds the key it is 409 and changes nothing; once released it applies', async () => {
      const { client, ctx, fixture } = world;
      const holder = new pg.Client({ connectionString: ctx.database.url });
      await holder.connect();
      try {
        await holder.query('begin');
        const scope = scopeOf(fixture);
        await holder.query('select pg_advisory_xact_lock($1::bigint)', [advisoryLockKey(scope, 'hb-held')]);
        const held = await client.heartbeat(shiftId, undefined, { idempotencyKey: 'hb-held' });
        expect({ status: held.statusCode, code: errorCode(held) }).toEqual({ status: 409, code: 'idempotency_request_in_progress' });
        expect((await shiftRow()).last_heartbeat_at).toBe(DEFAULT_NOW);
        await holder.query('commit');
      } finally {
        await holder.end();
      }
      const applied = await client.heartbeat(shiftId, undefined, { idempotencyKey: 'hb-held' });
      expect(dataOf<{ shift: { lastHeartbeatAt: string } }>(applied).shift.lastHeartbeatAt).toBe(iso(ctx.clock.now()));
    });

    it('a result another instance commits under the key while the heartbeat runs is the answer; the heartbeat changes nothing', async () => {
      const { client, ctx, fixture } = world;
      // The other instance's request: same key, another body. Its result is committed while this heartbeat's
      // statement waits for the shift's row, which the other session holds.
      const other = new pg.Client({ connectionString: ctx.database.url });
      await other.connect();
      try {
        await other.query('begin');
        await other.query('update shifts set server_id = server_id where id = $1', [shiftId]);
        const pending = client.heartbeat(shiftId, undefined, { idempotencyKey: 'hb-raced' });
        await waitUntilBlockedBy(other, pending);
        const theirs = fingerprintOf({
          scope: scopeOf(fixture),
          key: 'hb-raced',
          method: 'POST',
          path: `/v1/activity/shifts/${shiftId}/heartbeat`,
          body: { serverId: 'srv-1' },
          requestId: 'req_0123456789abcdefgh',
        });
        await other.query(
          `insert into idempotency_records
             (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
           values ($1, 'hb-raced', $2, 'completed', 200, '{}', 'req_0123456789abcdefgh', $3, 0)`,
          [scopeOf(fixture), theirs, ctx.clock.now()],
        );
        await other.query('commit');
        const answer = await pending;
        expect({ status: answer.statusCode, code: errorCode(answer) }).toEqual({ status: 422, code: 'idempotency_key_reused' });
      } finally {
        await other.end();
      }
      expect((await shiftRow()).last_heartbeat_at).toBe(DEFAULT_NOW);
    });
  }
});
