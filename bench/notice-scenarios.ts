/**
 * The inactivity notices' writes, each with its checked sample: a staff member asking for time off through the
 * chat bot's key (`notice-request`), and a manager approving pending notices on the dashboard (`notice-decide`).
 * Every notice asked for is a day of its own, after every notice already in the database, so none overlaps
 * another and each request answers 200 (CONTRACT: 409 notice_overlap otherwise).
 */
import type autocannon from 'autocannon';
import { openStore } from '../src/db/connect.ts';
import { dashboardHeaders } from './dashboard.ts';
import { mapConcurrent, requestJson } from './http.ts';
import { managerId, type StaffPlan } from './plan.ts';
import { Random } from './random.ts';
import type { Scenario, ScenarioContext } from './scenarios.ts';
import { dataOf, fail } from './workload.ts';

const REQUEST = '/v1/staff/me/inactivity-notices';
const APPROVE_TEMPLATE = '/v1/staff/inactivity-notices/{noticeId}/approve';
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Pending notices `notice-decide` approves, asked for during its setup: at about 3,000 approvals a second (an
 * intake's rate), the full profile's 2 s of warm-up and 10 s measured; each notice can be approved only once.
 */
export const NOTICE_DECISIONS = { quick: 3000, full: 36_000 } as const;

interface Notice {
  readonly id: string;
  readonly staffId: string;
  readonly status: string;
  readonly startsAt: string;
  readonly decidedAt: string | null;
}

type NoticeScenarioName = 'notice-request' | 'notice-decide';

/**
 * Each staff member's next free day: the first whole UTC day after every notice in the database (provisioned, or
 * asked for by an earlier run on the same database, as the builds of --compare are), then one more per request.
 */
function noticeDays(ctx: ScenarioContext) {
  let firstDay: number | null = null;
  const next = new Map<string, number>();
  return {
    async prepare(): Promise<void> {
      if (firstDay !== null) return;
      const store = openStore(ctx.databaseUrl);
      try {
        const row = await store.db.selectFrom('inactivity_notices').select((eb) => eb.fn.max('ends_at').as('last')).executeTakeFirst();
        const last = Math.max(Number(row?.last ?? 0), ctx.plan.now, Date.now());
        firstDay = Math.floor(last / DAY_MS) + 1;
      } finally {
        await store.close();
      }
    },
    /** The body of `staff`'s next request: a day of their own. */
    body(staff: StaffPlan): string {
      if (firstDay === null) fail('notices', 'the first free day was not looked up');
      const day = next.get(staff.id) ?? firstDay;
      next.set(staff.id, day + 1);
      return JSON.stringify({
        startsAt: new Date(day * DAY_MS).toISOString(),
        endsAt: new Date((day + 1) * DAY_MS).toISOString(),
        reason: 'Family visit, back the next day.',
      });
    },
  };
}

export function noticeScenarios(ctx: ScenarioContext): Record<NoticeScenarioName, Scenario> {
  const { contract, runTag, plan, profile } = ctx;
  const big = plan.big;
  // An inactive staff member may not ask (403 staff_inactive).
  const asking = big.staff.filter((s) => s.status === 'active');
  const days = noticeDays(ctx);
  let phase = 0;
  const nextPhase = () => {
    phase += 1;
    return phase;
  };
  /** The bot's headers acting as `staff`: its key and both chat headers, as `GET /v1/staff/me` needs them. */
  const botHeaders = (staff: StaffPlan, key: string) => ({
    authorization: `Bearer ${big.botKey.secret}`,
    'x-chat-guild-id': big.guildId,
    'x-acting-chat-user-id': staff.chatUserId,
    'content-type': 'application/json',
    'idempotency-key': key,
  });
  const ask = async (staff: StaffPlan, key: string) => {
    const response = await requestJson(ctx.baseUrl, { method: 'POST', path: REQUEST, headers: botHeaders(staff, key), body: JSON.parse(days.body(staff)) as unknown });
    contract.check('notice-request', 'POST', REQUEST, response);
    const notice = dataOf<{ notice: Notice }>(response).notice;
    if (notice.status !== 'pending' || notice.staffId !== staff.id) fail('notice-request', `asked for a notice and got ${JSON.stringify(notice)}`);
    return notice;
  };

  const request: Scenario = {
    name: 'notice-request',
    title: `POST ${REQUEST} (the bot's key acting as random staff, a day of their own each, unique keys)`,
    operation: { unit: 'notice', requests: 1 },
    prepare: days.prepare,
    async check() {
      const staff = asking[0];
      if (!staff) fail('notice-request', 'no active staff member to ask');
      await ask(staff, `${runTag}-check-notice-${nextPhase()}`);
    },
    requests() {
      const n = nextPhase();
      const tag = `${runTag}-notice${n}`;
      const random = new Random(n);
      let i = 0;
      return [
        {
          method: 'POST',
          path: REQUEST,
          setupRequest(spec) {
            i += 1;
            const staff = random.pick(asking);
            return { ...spec, headers: botHeaders(staff, `${tag}-${i}`), body: days.body(staff) };
          },
        },
      ];
    },
  };

  // Approvals: each pending notice once, so a phase makes a fixed number (like `start`), from the pool asked for
  // in prepare; autocannon may build a request per connection it never sends, hence the margin left unused.
  let manager: Record<string, string> = {};
  let pool: string[] = [];
  let nextNotice = 0;
  const margin = () => profile.connections * 2;
  const approvePath = (id: string) => `/v1/staff/inactivity-notices/${id}/approve`;
  const decide: Scenario = {
    name: 'notice-decide',
    title: `POST ${APPROVE_TEMPLATE} (a manager's dashboard token, each of ${NOTICE_DECISIONS[profile.name].toLocaleString('en-US')} pending notices once, unique keys)`,
    operation: { unit: 'approval', requests: 1 },
    async prepare() {
      if (!manager.authorization) manager = await dashboardHeaders(managerId(0));
      await days.prepare();
      const started = performance.now();
      const tag = `${runTag}-pool${nextPhase()}`;
      const staffFor = (i: number) => asking[i % asking.length] ?? fail('notice-decide', 'no active staff member to ask');
      const asked = await mapConcurrent(Array.from({ length: NOTICE_DECISIONS[profile.name] }, (_, i) => i), profile.connections, (i) => ask(staffFor(i), `${tag}-${i}`));
      pool = asked.map((notice) => notice.id);
      nextNotice = 0;
      ctx.log(`  asked for ${pool.length} pending notices in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    },
    async check() {
      const id = pool[nextNotice];
      if (id === undefined) fail('notice-decide', 'no pending notice to approve');
      nextNotice += 1;
      const response = await requestJson(ctx.baseUrl, {
        method: 'POST',
        path: approvePath(id),
        headers: { ...manager, 'idempotency-key': `${runTag}-check-approve-${nextPhase()}` },
        body: {},
      });
      contract.check('notice-decide', 'POST', APPROVE_TEMPLATE, response);
      const notice = dataOf<{ notice: Notice }>(response).notice;
      if (notice.id !== id || notice.status !== 'approved' || notice.decidedAt === null) fail('notice-decide', `approval answered ${JSON.stringify(notice)}`);
    },
    amount(warmup) {
      const left = pool.length - nextNotice - margin();
      return Math.max(profile.connections, warmup ? Math.floor(left / 4) : left);
    },
    requests() {
      const tag = `${runTag}-approve${nextPhase()}`;
      let i = 0;
      const list: autocannon.RequestSpec[] = [
        {
          method: 'POST',
          setupRequest(spec) {
            // Past the pool only when prepare asked for too few: the repeated approval then answers 409 and fails the run.
            const id = pool[Math.min(nextNotice, pool.length - 1)] ?? '';
            nextNotice += 1;
            i += 1;
            return { ...spec, path: approvePath(id), headers: { ...manager, 'content-type': 'application/json', 'idempotency-key': `${tag}-${i}` }, body: '{}' };
          },
        },
      ];
      return list;
    },
  };

  return { 'notice-request': request, 'notice-decide': decide };
}
