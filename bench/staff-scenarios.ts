/**
 * The console's staff side: a roster page (`GET /v1/staff`) with a member's dashboard token, the size of a
 * leaderboard page (25), in the big workspace. Its cost is compared with `leaderboard-week`'s: reading the roster
 * must cost at most what a leaderboard page of the same size does.
 */
import { REVIEWER_ID } from './applications-data.ts';
import { dashboardHeaders } from './dashboard.ts';
import type { Scenario, ScenarioContext } from './scenarios.ts';
import { dataOf, fail, type Workload } from './workload.ts';

const ROSTER = '/v1/staff';
const PAGE = 25;

interface RosterItem {
  readonly id: string;
  readonly displayName: string;
  readonly status: string;
  readonly week: { readonly totalMinutes: number; readonly requiredMinutes: number; readonly progressPercent: number };
}

export function staffScenarios(ctx: ScenarioContext, workload: Workload): Record<'roster', Scenario> {
  const { contract, plan } = ctx;
  const big = plan.big;
  const path = `${ROSTER}?limit=${PAGE}`;
  let member: Record<string, string> = {};
  const signIn = async () => {
    if (!member.authorization) member = { ...(await dashboardHeaders(REVIEWER_ID)), 'x-service-workspace-id': big.id };
  };
  const active = new Set(big.staff.filter((s) => s.status === 'active').map((s) => s.id));

  const roster: Scenario = {
    name: 'roster',
    title: `GET ${ROSTER} (active staff, page 1 of ${PAGE}, each with its week and shift under way; ${big.staff.length.toLocaleString('en-US')} staff in the workspace)`,
    prepare: signIn,
    async check() {
      const response = await workload.get(path, member);
      contract.check('roster', 'GET', ROSTER, response);
      const page = dataOf<{ staff: RosterItem[]; nextCursor: unknown }>(response);
      if (page.staff.length !== Math.min(PAGE, active.size)) fail('roster', `expected ${PAGE} staff, got ${page.staff.length}`);
      page.staff.forEach((item, i) => {
        if (!active.has(item.id)) fail('roster', `item ${i} is not an active staff member of the workspace`);
        const previous = page.staff[i - 1];
        if (previous && previous.displayName > item.displayName) fail('roster', `items ${i - 1} and ${i} are out of order`);
      });
      if ((active.size > PAGE) !== (page.nextCursor !== null)) fail('roster', 'nextCursor does not match the active count');
    },
    requests: () => [{ method: 'GET', path, headers: member }],
  };
  return { roster };
}
