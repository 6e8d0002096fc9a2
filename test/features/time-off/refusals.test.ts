import {
  AliasNode,
  type CompiledQuery,
  TableNode,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type Transaction,
  type UnknownRow,
} from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/db/store.ts';
import type { Database } from '../../../src/db/types.ts';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { seed } from '../../helpers/fixtures.ts';
import { postgresAvailable } from '../../helpers/stores.ts';
import { ask, dataOf, decide, iso, noticeBody, type NoticeData } from './helpers.ts';
import { useNoticeWorld } from './world.ts';

const NOW = DEFAULT_NOW;

/** Whether a statement writes inactivity notices (an INSERT or an UPDATE of the table). */
function writesNotices(node: RootOperationNode): boolean {
  if (node.kind === 'InsertQueryNode') return node.into?.table.identifier.name === 'inactivity_notices';
  if (node.kind !== 'UpdateQueryNode' || node.table === undefined) return false;
  const table = AliasNode.is(node.table) ? node.table.node : node.table;
  return TableNode.is(table) && table.table.identifier.name === 'inactivity_notices';
}

/** Whether a statement's text writes inactivity notices (an INSERT or an UPDATE of the table). */
function writesNoticesText(text: string): boolean {
  return /^\s*(insert\s+into|update)\s+"?inactivity_notices"?\s/i.test(text);
}

/**
 * Once armed, cancels a notice right after the next write of notices that changes no row, from another connection:
 * a cancellation (which takes no lock) committed between a refused write and the look-up of the notice that
 * refused it. Only PostgreSQL can interleave them: SQLite's one writer runs each transaction whole. A write is
 * seen either as a query built and compiled for the run (a plugin sees its node), or as a statement compiled
 * once and run by `executeQuery` (seen by its text).
 */
function cancelAfterRefusal() {
  let armed: string | null = null;
  const afterWrite = async (db: Kysely<Database>, result: QueryResult<unknown>) => {
    const id = armed;
    if (id !== null && result.rows.length === 0 && Number(result.numAffectedRows ?? 0) === 0) {
      armed = null;
      await db.updateTable('inactivity_notices').set({ status: 'cancelled' }).where('id', '=', id).execute();
    }
  };
  const watch = (trx: Transaction<Database>, db: Kysely<Database>): Transaction<Database> => {
    const notices = new WeakSet<QueryId>();
    const plugin: KyselyPlugin = {
      transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
        if (writesNotices(node)) notices.add(queryId);
        return node;
      },
      async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
        if (notices.has(queryId)) await afterWrite(db, result);
        return result;
      },
    };
    const watched = trx.withPlugin(plugin);
    return new Proxy(watched, {
      get(target, property) {
        if (property === 'executeQuery') {
          return async <R>(query: CompiledQuery<R>): Promise<QueryResult<R>> => {
            const result = await target.executeQuery(query);
            if (writesNoticesText(query.sql)) await afterWrite(db, result);
            return result;
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  return {
    arm(noticeId: string) {
      armed = noticeId;
    },
    wrapStore: (store: Store): Store => ({
      db: store.db,
      dialect: store.dialect,
      write: (job) => store.write((trx) => job(watch(trx, store.db))),
      read: (job) => store.read(job),
      afterCommit: (listener) => store.afterCommit(listener),
      close: () => store.close(),
    }),
  };
}

describe.runIf(postgresAvailable)('inactivity notices: a refusal whose cause is gone when it is looked up (postgres)', () => {
  const cancellation = cancelAfterRefusal();
  const world = useNoticeWorld('postgres', { wrapStore: cancellation.wrapStore });

  const status = async (id: string) =>
    (await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('a request refused for an overlap cancelled before it is named is recorded, as a check after it would allow', async () => {
    const { chatUserId } = await world.freshStaff();
    world.ctx.clock.set(NOW);
    const first = dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.live.secret, noticeBody(NOW, 10, 24), { chatUserId })).notice;
    cancellation.arm(first.id);
    const second = dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.live.secret, noticeBody(NOW, 20, 24), { chatUserId })).notice;
    expect(second.status).toBe('pending');
    expect([await status(first.id), await status(second.id)]).toEqual(['cancelled', 'pending']);
  });

  it('an approval refused for an overlap cancelled before it is named is made, as a check after it would allow', async () => {
    const { chatUserId } = await world.freshStaff();
    world.ctx.clock.set(NOW);
    const first = dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.live.secret, noticeBody(NOW, 10, 24), { chatUserId })).notice;
    expect((await decide(world.ctx.inject, world.token, 'approve', first.id)).statusCode).toBe(200);
    // A provisioned pending notice overlapping the approved one (a request could not overlap it).
    const workspace = world.fixture.document.workspaces[0]!;
    const pending = { id: crypto.randomUUID(), staffId: first.staffId, startsAt: iso(NOW + 20 * 3_600_000), endsAt: iso(NOW + 40 * 3_600_000), reason: 'x', status: 'pending' as const };
    await seed(world.ctx, { document: { workspaces: [{ ...workspace, inactivityNotices: [pending] }] } });
    cancellation.arm(first.id);
    const approved = dataOf<NoticeData>(await decide(world.ctx.inject, world.token, 'approve', pending.id)).notice;
    expect(approved.status).toBe('approved');
    expect([await status(first.id), await status(pending.id)]).toEqual(['cancelled', 'approved']);
  });
});
