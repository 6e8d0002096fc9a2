import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import type { Store } from '../../../src/db/connect.ts';
import { DEFAULT_NOW } from '../../helpers/app.ts';
import { checkedInject, type Inject } from '../../helpers/contract.ts';
import { postgresAvailable, STORE_KINDS, type StoreKind } from '../../helpers/stores.ts';
import { ask, dataOf, decide, errorOf, noticeBody, type NoticeData } from './helpers.ts';
import { useNoticeWorld, type NoticeWorld } from './world.ts';

const NOW = DEFAULT_NOW;

function statuses(responses: LightMyRequestResponse[]): number[] {
  return responses.map((r) => r.statusCode).sort();
}

/** The races, against one or two app instances (`injects` used in turn). */
function races(world: NoticeWorld, injects: () => Inject[]) {
  it('overlapping requests racing with different keys create one notice; the others get 409 notice_overlap', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { id: staffId, chatUserId } = await world.freshStaff();
      world.ctx.clock.set(NOW);
      const all = injects();
      const responses = await Promise.all(
        [0, 1, 2].map((i) => ask(all[i % all.length]!, world.fixture.keys.live.secret, noticeBody(NOW, 10 + i, 24), { chatUserId })),
      );
      expect(statuses(responses)).toEqual([200, 409, 409]);
      const winner = dataOf<NoticeData>(responses.find((r) => r.statusCode === 200)!).notice;
      for (const loser of responses.filter((r) => r.statusCode === 409)) {
        expect(errorOf(loser)).toMatchObject({ code: 'notice_overlap', details: { noticeId: winner.id } });
      }
      const rows = await world.ctx.store.db.selectFrom('inactivity_notices').select('id').where('staff_id', '=', staffId).execute();
      expect(rows.map((r) => r.id)).toEqual([winner.id]);
    }
  });

  it('an approval racing a denial: exactly one wins, the other is 409 invalid_state_transition', async () => {
    for (let round = 0; round < 4; round += 1) {
      const { chatUserId } = await world.freshStaff();
      world.ctx.clock.set(NOW);
      const notice = dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.live.secret, noticeBody(NOW, 10, 24), { chatUserId })).notice;
      const all = injects();
      const [approve, deny] = await Promise.all([
        decide(all[0]!, world.token, 'approve', notice.id),
        decide(all[1 % all.length]!, world.token, 'deny', notice.id),
      ]);
      expect(statuses([approve, deny])).toEqual([200, 409]);
      const loser = approve.statusCode === 200 ? deny : approve;
      expect(errorOf(loser).code).toBe('invalid_state_transition');
      const row = await world.ctx.store.db.selectFrom('inactivity_notices').select('status').where('id', '=', notice.id).executeTakeFirstOrThrow();
      expect(row.status).toBe(approve.statusCode === 200 ? 'approved' : 'denied');
      const commands = await world.ctx.store.db
        .selectFrom('commands')
        .select('type')
        .where('type', 'in', ['staff.inactivity_notice.approve', 'staff.inactivity_notice.deny'])
        .where('payload', 'like', `%${notice.id}%`)
        .execute();
      expect(commands).toHaveLength(1);
    }
  });

  it('two overlapping pending notices approved at once: one is approved, the other 409 notice_overlap', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { chatUserId } = await world.freshStaff();
      world.ctx.clock.set(NOW);
      // Pending in two environments cannot meet; provisioned pending notices can (provisioning has no request rules).
      const first = dataOf<NoticeData>(await ask(world.ctx.inject, world.fixture.keys.live.secret, noticeBody(NOW, 10, 24), { chatUserId })).notice;
      const secondId = crypto.randomUUID();
      const { seed } = await import('../../helpers/fixtures.ts');
      const workspace = world.fixture.document.workspaces[0]!;
      await seed(world.ctx, {
        document: {
          workspaces: [{ ...workspace, inactivityNotices: [{ id: secondId, staffId: first.staffId, startsAt: first.startsAt, endsAt: first.endsAt, reason: 'x', status: 'pending' }] }],
        },
      });
      const all = injects();
      const responses = await Promise.all([
        decide(all[0]!, world.token, 'approve', first.id),
        decide(all[1 % all.length]!, world.token, 'approve', secondId),
      ]);
      expect(statuses(responses)).toEqual([200, 409]);
      expect(errorOf(responses.find((r) => r.statusCode === 409)!).code).toBe('notice_overlap');
    }
  });
}

describe.each(STORE_KINDS)('inactivity notices: races on one instance (%s)', (kind: StoreKind) => {
  const world = useNoticeWorld(kind);
  races(world, () => [world.ctx.inject]);
});

describe.runIf(postgresAvailable)('inactivity notices: races across two instances sharing one database (postgres)', () => {
  const world = useNoticeWorld('postgres');
  let secondStore: Store;
  let secondApp: FastifyInstance;
  let secondInject: Inject;
  beforeAll(async () => {
    secondStore = world.ctx.database.open();
    secondApp = await buildApp({ config: world.ctx.config, store: secondStore, clock: world.ctx.clock, logger: false });
    await secondApp.ready();
    secondInject = await checkedInject(secondApp);
  });
  afterAll(async () => {
    await secondApp?.close();
    await secondStore?.close();
  });
  races(world, () => [world.ctx.inject, secondInject]);
});
