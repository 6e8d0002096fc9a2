/**
 * The applications scenarios, each with its checked sample: the reviewers' default queue page and one submission
 * with its answers and history (dashboard token), intake of new applications (API key), and shift starts alone,
 * the reference for intake's cost.
 */
import type autocannon from 'autocannon';
import { answersFor, FORM_QUESTION_COUNT, type SubmissionPlan } from './applications-plan.ts';
import { REVIEWER_ID } from './applications-data.ts';
import { dashboardHeaders } from './dashboard.ts';
import { Random } from './random.ts';
import type { Scenario, ScenarioContext } from './scenarios.ts';
import { dataOf, fail, START, type Workload } from './workload.ts';

const QUEUE = '/v1/applications/submissions';
const SUBMISSION_TEMPLATE = '/v1/applications/submissions/{submissionId}';
const INTAKE_TEMPLATE = '/v1/applications/forms/{formId}/submissions';
const PAGE = 25;
/** Submissions with a history the `submission` scenario reads in turn (random order). */
const DETAIL_POOL = 1000;

interface Item {
  readonly id: string;
  readonly status: string;
  readonly formId: string | null;
  readonly createdAt: string;
}

type ApplicationScenarioName = 'queue' | 'submission' | 'intake' | 'start';

const byCreated = (a: SubmissionPlan, b: SubmissionPlan) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function applicationScenarios(ctx: ScenarioContext, workload: Workload): Record<ApplicationScenarioName, Scenario> {
  const { contract, runTag, plan } = ctx;
  const applications = plan.big.applications;
  const submissions = applications?.submissions ?? [];
  const pending = submissions.filter((s) => s.status === 'submitted' || s.status === 'under_review').sort(byCreated);
  const withHistory = submissions.filter((s) => s.history).slice(-DETAIL_POOL);
  const formId = applications?.formId ?? '';
  const intakePath = `/v1/applications/forms/${formId}/submissions`;
  let reviewer: Record<string, string> = {};
  const signIn = async () => {
    if (applications === null) fail('applications', 'the dataset has no application form');
    if (!reviewer.authorization) reviewer = await dashboardHeaders(REVIEWER_ID);
  };
  let phase = 0;
  const nextPhase = () => {
    phase += 1;
    return phase;
  };
  const jsonHeaders = (key: string) => ({ ...workload.auth, 'content-type': 'application/json', 'idempotency-key': key });

  const queue: Scenario = {
    name: 'queue',
    title: `GET ${QUEUE} (default filter, page 1 of 25; ${submissions.length.toLocaleString('en-US')} submissions in the workspace)`,
    prepare: signIn,
    async check() {
      const response = await workload.get(QUEUE, reviewer);
      contract.check('queue', 'GET', QUEUE, response);
      const page = dataOf<{ submissions: Item[]; nextCursor: unknown }>(response);
      const expected = pending.slice(0, PAGE);
      if (page.submissions.length !== expected.length) fail('queue', `expected ${expected.length} items, got ${page.submissions.length}`);
      page.submissions.forEach((item, i) => {
        if (item.id !== expected[i]?.id) fail('queue', `item ${i} is not the ${i + 1}th oldest pending submission`);
        if (item.status !== 'submitted' && item.status !== 'under_review') fail('queue', `item ${i} is ${item.status}`);
      });
      if ((pending.length > PAGE) !== (page.nextCursor !== null)) fail('queue', 'nextCursor does not match the pending count');
    },
    requests: () => [{ method: 'GET', path: QUEUE, headers: reviewer }],
  };

  const submission: Scenario = {
    name: 'submission',
    title: `GET ${SUBMISSION_TEMPLATE} (${FORM_QUESTION_COUNT} answers and a history; ${withHistory.length.toLocaleString('en-US')} in random order)`,
    prepare: signIn,
    async check() {
      for (const planned of [withHistory[0], withHistory[withHistory.length - 1]]) {
        if (!planned) fail('submission', 'no submission with a history in the dataset');
        const response = await workload.get(`${QUEUE}/${planned.id}`, reviewer);
        contract.check('submission', 'GET', SUBMISSION_TEMPLATE, response);
        const data = dataOf<{ submission: Item & { answers: unknown[]; history: Array<{ type: string }> } }>(response).submission;
        if (data.id !== planned.id) fail('submission', 'answered for another submission');
        if (data.status !== planned.status) fail('submission', `status ${data.status}, expected ${planned.status}`);
        if (data.answers.length !== FORM_QUESTION_COUNT) fail('submission', `${data.answers.length} answers, expected ${FORM_QUESTION_COUNT}`);
        const steps = planned.decidedAt === null ? 3 : 4;
        if (data.history.length !== steps || data.history[0]?.type !== 'submitted') {
          fail('submission', `history ${data.history.map((h) => h.type).join(', ')}, expected ${steps} steps from submitted`);
        }
      }
    },
    requests() {
      const random = new Random(nextPhase());
      return [
        {
          method: 'GET',
          setupRequest: (request) => ({ ...request, path: `${QUEUE}/${random.pick(withHistory).id}`, headers: reviewer }),
        },
      ];
    },
  };

  /**
   * A new applicant per request: game user ids of the form 4RRRRPPPNNNNNNN (R this run's, P the phase's, N the
   * request's), never an existing one, nor one of another run on the same data (the builds of --compare).
   */
  const runCode = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
  const intakeBody = (n: number, i: number, random: Random) =>
    JSON.stringify({
      applicant: {
        gameUserId: `4${runCode}${String(n).padStart(3, '0')}${String(i).padStart(7, '0')}`,
        gameUsername: `bench_applicant_${i}`,
      },
      answers: answersFor(i, random),
    });
  const intake: Scenario = {
    name: 'intake',
    title: `POST ${INTAKE_TEMPLATE} (${FORM_QUESTION_COUNT} answers, a new applicant and a unique key each)`,
    operation: { unit: 'submission', requests: 1 },
    async check() {
      if (applications === null) fail('intake', 'the dataset has no application form');
      const n = nextPhase();
      const body: unknown = JSON.parse(intakeBody(n, 0, new Random(n)));
      const response = await workload.post(intakePath, `${runTag}-check-intake-${n}`, body);
      contract.check('intake', 'POST', INTAKE_TEMPLATE, response);
      const data = dataOf<{ submission: Item }>(response);
      if (data.submission.status !== 'submitted' || data.submission.formId !== formId) fail('intake', 'the submission was not recorded');
    },
    requests() {
      const n = nextPhase();
      const tag = `${runTag}-intake${n}`;
      const random = new Random(n);
      let i = 0;
      return [
        {
          method: 'POST',
          path: intakePath,
          setupRequest(request) {
            i += 1;
            return { ...request, headers: jsonHeaders(`${tag}-${i}`), body: intakeBody(n, i, random) };
          },
        },
      ];
    },
  };

  // Starts alone: each needs a staff member without an active shift, so a phase starts at most one shift per
  // staff member of the start/stop pool (a fixed amount), and cleanup stops them all, unmeasured.
  let nextStaff = 0;
  const freeStaff = () => workload.freeCycleStaff();
  const start: Scenario = {
    name: 'start',
    title: 'POST /v1/activity/shifts/start alone (each staff member of the start/stop pool once, unique keys)',
    operation: { unit: 'start', requests: 1 },
    prepare: freeStaff,
    async check() {
      const staff = workload.cycleStaff[0];
      if (!staff) fail('start', 'no staff member for starts');
      // `prepare` has just freed the start/stop staff.
      const n = nextPhase();
      const response = await workload.post(START, `${runTag}-check-start-only-${n}`, workload.startBody(staff, 0));
      contract.check('start', 'POST', START, response);
      const data = dataOf<{ shift: { id: string; status: string }; existing?: boolean }>(response);
      if (data.shift.status !== 'active' || data.existing === true) fail('start', 'start did not start a new shift');
      await freeStaff();
      nextStaff = 0;
    },
    amount: (warmup) => {
      // A quarter of the pool warms up, the rest is measured.
      const pool = workload.cycleStaff.length;
      return warmup ? Math.floor(pool / 4) : pool - Math.floor(pool / 4);
    },
    requests() {
      const tag = `${runTag}-start${nextPhase()}`;
      let i = 0;
      const list: autocannon.RequestSpec[] = [
        {
          method: 'POST',
          path: START,
          setupRequest(request) {
            const staff = workload.cycleStaff[nextStaff % workload.cycleStaff.length];
            nextStaff += 1;
            i += 1;
            if (!staff) return null;
            return { ...request, headers: jsonHeaders(`${tag}-${i}`), body: JSON.stringify(workload.startBody(staff, i)) };
          },
        },
      ];
      return list;
    },
    cleanup: freeStaff,
  };

  return { queue, submission, intake, start };
}
