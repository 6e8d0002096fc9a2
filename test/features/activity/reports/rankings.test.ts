/**
 * The totals a roster takes from a kept ranking (reports/rankings.ts, `staffTotals`): those the ranking holds, and
 * for a staff member it does not hold (one a write made ranked after the version the request read) their totals
 * computed afresh, on both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { weekPeriod } from '../../../../src/features/activity/periods/periods.ts';
import { createRankings } from '../../../../src/features/activity/reports/rankings.ts';
import { findWorkspace } from '../../../../src/features/workspaces/workspace.ts';
import { createTestContext, type TestContext } from '../../../helpers/app.ts';
import { buildFixture, seed, type Fixture } from '../../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../../helpers/stores.ts';
import { addHistory, completedShift } from './helpers.ts';

// Wednesday 2026-03-11 12:00 UTC; the week runs from Monday 2026-03-09.
const NOW = Date.parse('2026-03-11T12:00:00Z');

describe.each(STORE_KINDS)('week totals from a kept ranking (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture;

  beforeAll(async () => {
    ctx = await createTestContext(kind, { now: NOW });
    fixture = buildFixture();
    const { alice, carol } = fixture.ids.staff;
    // Alice (active) 3 hours this week; carol (inactive) 1 h 30 m this week and 2 hours the week before.
    addHistory(fixture, {
      shifts: [
        completedShift(fixture, alice, '2026-03-10T10:00:00Z', '2026-03-10T13:00:00Z'),
        completedShift(fixture, carol, '2026-03-09T08:00:00Z', '2026-03-09T09:30:00Z'),
        completedShift(fixture, carol, '2026-03-03T08:00:00Z', '2026-03-03T10:00:00Z'),
      ],
    });
    await seed(ctx, fixture);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  async function scope(statuses: string[]) {
    const workspace = await findWorkspace(ctx.store.db, fixture.ids.workspaceId);
    if (!workspace) throw new Error('workspace missing');
    return { workspace, environment: 'test' as const, period: weekPeriod(NOW, 'UTC'), statuses, departmentId: null };
  }

  it('gives the ranked staff their ranking\'s totals, and computes those of a staff member it does not rank', async () => {
    const rankings = createRankings({ db: ctx.store.db, config: ctx.config });
    const { alice, bob, carol } = fixture.ids.staff;
    const active = await scope(['active']);
    expect((await rankings.ranked(active, NOW)).map((item) => item.staffId)).not.toContain(carol);

    const totals = await rankings.staffTotals(active, NOW, [alice, bob, carol]);
    expect(totals.get(alice)).toMatchObject({ totalSeconds: 3 * 3600, totalMinutes: 180, completedShifts: 1 });
    expect(totals.get(bob)).toMatchObject({ totalSeconds: 0, totalMinutes: 0, completedShifts: 0 });
    expect(totals.get(carol)).toMatchObject({ totalSeconds: 90 * 60, totalMinutes: 90, completedShifts: 1 });

    // The same as the ranking of everyone, which ranks her.
    const everyone = await rankings.ranked(await scope(['active', 'inactive']), NOW);
    expect({ staffId: carol, ...totals.get(carol) }).toEqual(everyone.find((item) => item.staffId === carol));
  });
});
