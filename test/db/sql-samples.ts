/**
 * The repositories' queries, run with sample values on a Kysely instance that only records what it is asked to
 * run (no database): what test/db/sql-snapshots.test.ts writes to `sql/`. The samples of the application forms,
 * submissions and review writes, and of the reviewers' reads, are in sql-samples-applications.ts and
 * sql-samples-queue.ts.
 */
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
} from 'kysely';
import { SqliteValueQueryCompiler } from '../../src/db/dialect.ts';
import type { Store } from '../../src/db/store.ts';
import type { Database } from '../../src/db/types.ts';
import * as erasure from '../../src/features/erasure/repository.ts';
import * as reports from '../../src/features/reports/repository.ts';
import { recordShiftEvents } from '../../src/features/shifts/events.ts';
import { startShift, stopShift, timeOutShift, timeOutShifts } from '../../src/features/shifts/lifecycle.ts';
import * as shifts from '../../src/features/shifts/repository.ts';
import * as staff from '../../src/features/staff/profiles.ts';
import * as totals from '../../src/features/totals/repository.ts';
import { applyCompletedShifts } from '../../src/features/totals/service.ts';
import * as outbox from '../../src/features/webhooks/outbox.ts';
import * as webhooks from '../../src/features/webhooks/repository.ts';
import * as workspace from '../../src/features/workspaces/workspace.ts';
import { createApiKeyAuthenticator } from '../../src/http/api-key-auth.ts';
import * as records from '../../src/idempotency/records.ts';
import { applicationsSnapshots, formsSnapshots, intakeSnapshots } from './sql-samples-applications.ts';
import {
  AUDIENCE,
  CREDENTIAL,
  EVENT,
  HEARTBEAT,
  HOUR,
  NOW,
  OWNER,
  RESULT,
  SHIFT,
  SHIFT_ROW,
  SPAN,
  STAFF,
  WORKSPACE,
} from './sql-sample-values.ts';
import { queueSnapshots } from './sql-samples-queue.ts';

export const SNAPSHOT_DIALECTS = ['sqlite', 'postgres'] as const;
export type SnapshotDialect = (typeof SNAPSHOT_DIALECTS)[number];

type Db = Kysely<Database>;

/** One call of a repository function with sample values. */
export interface Sample {
  readonly name: string;
  readonly run: (db: Db) => Promise<unknown>;
  /** The row every query answers (none by default), for a function that reads before it writes. */
  readonly answer?: Readonly<Record<string, unknown>>;
}

/** A repository module's samples, written to `sql/<file>.<dialect>.sql`. */
export interface SnapshotModule {
  readonly file: string;
  readonly samples: readonly Sample[];
}

/** A driver whose every query answers `row`. */
class AnsweringDriver extends DummyDriver {
  private readonly row: Readonly<Record<string, unknown>>;
  constructor(row: Readonly<Record<string, unknown>>) {
    super();
    this.row = row;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    const rows = [this.row];
    return {
      executeQuery: async <R>() => ({ rows: rows as R[] }),
      // eslint-disable-next-line require-yield
      streamQuery: async function* () {
        return;
      },
    };
  }
}

/**
 * A Kysely instance of `dialect` (compiling as the store does) that records the queries it is asked to run into
 * `queries`, answering none, or `answer` to each.
 */
export function recordingDb(
  dialect: SnapshotDialect,
  queries: CompiledQuery[],
  answer?: Readonly<Record<string, unknown>>,
): Db {
  const postgres = dialect === 'postgres';
  const driver: Driver = answer === undefined ? new DummyDriver() : new AnsweringDriver(answer);
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createDriver: () => driver,
      createIntrospector: (db) => (postgres ? new PostgresIntrospector(db) : new SqliteIntrospector(db)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteValueQueryCompiler()),
    },
    log: (event) => {
      if (event.level === 'query') queries.push(event.query);
    },
  });
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The queries one sample runs on `dialect`. */
export async function sampleQueries(sample: Sample, dialect: SnapshotDialect): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  await sample.run(recordingDb(dialect, queries, sample.answer));
  return queries;
}

/** Every query the module's samples run on `dialect`. */
export async function capturedQueries(module: SnapshotModule, dialect: SnapshotDialect): Promise<string> {
  const parts: string[] = [];
  for (const sample of module.samples) {
    const queries = await sampleQueries(sample, dialect);
    const lines = [`-- ${sample.name}`];
    for (const query of queries) {
      lines.push(`${query.sql};`);
      // Ids the code generates (time-ordered uuids) differ on every run: written as <uuid>.
      lines.push(`-- values: ${JSON.stringify(query.parameters).replace(UUID, '<uuid>')}`);
    }
    parts.push(`${lines.join('\n')}\n`);
  }
  return parts.join('\n');
}

/** A store on the recording Kysely instance: writes run in one of its (recorded) transactions. */
function storeOf(db: Db, dialect: SnapshotDialect): Store {
  return {
    db,
    dialect,
    write: (job) => db.transaction().execute(job),
    read: (job) => job(),
    close: () => db.destroy(),
  };
}

/** The repositories whose queries are snapshotted, with their samples. */
export function snapshotSamples(): SnapshotModule[] {
  return [
    {
      file: 'shifts',
      samples: [
        { name: 'findOwnedShift', run: (db) => shifts.findOwnedShift(db, OWNER, SHIFT) },
        { name: 'findOwnedShifts', run: (db) => shifts.findOwnedShifts(db, OWNER, [SHIFT, 'shift-2']) },
        { name: 'findActiveShift', run: (db) => shifts.findActiveShift(db, OWNER, STAFF) },
        { name: 'findActiveShiftsOfServer', run: (db) => shifts.findActiveShiftsOfServer(db, OWNER, 'server-1') },
        { name: 'lockShifts', run: (db) => shifts.lockShifts(db, [SHIFT, 'shift-2']) },
        { name: 'recordHeartbeat', run: (db) => shifts.recordHeartbeat(db, SHIFT, HEARTBEAT) },
        { name: 'recordHeartbeats', run: (db) => shifts.recordHeartbeats(db, [SHIFT, 'shift-2'], HEARTBEAT) },
        {
          name: 'recordKnownHeartbeat',
          run: (db) => shifts.recordKnownHeartbeat(storeOf(db, dialectOf(db)), SHIFT, HEARTBEAT, CREDENTIAL, RESULT),
        },
        { name: 'findVisibleShift', run: (db) => shifts.findVisibleShift(db, AUDIENCE, SHIFT) },
        {
          name: 'listLiveShifts',
          run: (db) =>
            shifts.listLiveShifts(db, AUDIENCE, {
              staleBefore: NOW - 300_000,
              after: { at: NOW - HOUR, id: SHIFT },
              limit: 51,
            }),
        },
      ],
    },
    {
      file: 'shift-lifecycle',
      samples: [
        { name: 'startShift', run: (db) => db.transaction().execute((trx) => startShift(trx, SHIFT_ROW)) },
        {
          name: 'stopShift',
          run: (db) =>
            db
              .transaction()
              .execute((trx) =>
                stopShift(trx, SHIFT, { endedAt: NOW, reason: 'manual', staleBefore: NOW - 300_000, owner: OWNER }, NOW),
              ),
        },
        { name: 'timeOutShift', run: (db) => db.transaction().execute((trx) => timeOutShift(trx, SHIFT, NOW - 300_000, NOW)) },
        { name: 'timeOutShifts', run: (db) => db.transaction().execute((trx) => timeOutShifts(trx, NOW - 300_000, 500, NOW)) },
        {
          name: "recordShiftEvents (one shift's)",
          run: (db) => recordShiftEvents(db, 'activity.shift.ended', [{ ...SHIFT_ROW, status: 'completed', ended_at: NOW }], NOW),
        },
      ],
    },
    {
      file: 'totals',
      samples: [
        { name: 'applyCompletedShifts (a completion)', run: (db) => applyCompletedShifts(db, [SPAN]) },
        { name: 'lockWorkspacesForTotals', run: (db) => totals.lockWorkspacesForTotals(db, [WORKSPACE]) },
        {
          name: 'recordChangedStaff',
          run: (db) => totals.recordChangedStaff(db, [{ workspaceId: WORKSPACE, version: 64, staffIds: new Set([STAFF]) }]),
        },
        { name: 'findChanges', run: (db) => totals.findChanges(db, WORKSPACE, 10, 12) },
        {
          name: 'addToTotals (taking shifts out)',
          run: (db) =>
            totals.addToTotals(db, [
              {
                workspace_id: WORKSPACE,
                environment: 'test',
                grain: 'day',
                bucket_start: NOW - 12 * HOUR,
                staff_id: STAFF,
                worked_ms: -HOUR,
                started_shifts: -1,
                carried_shifts: 0,
              },
            ]),
        },
        {
          name: 'raiseLongestShift',
          run: (db) => totals.raiseLongestShift(db, [{ workspaceId: WORKSPACE, environment: 'test', ms: HOUR }]),
        },
        { name: 'clearTotals', run: (db) => totals.clearTotals(db, WORKSPACE) },
        { name: 'clearTotals (some staff)', run: (db) => totals.clearTotals(db, WORKSPACE, [STAFF]) },
        { name: 'findWorkspaceId', run: (db) => totals.findWorkspaceId(db, WORKSPACE) },
        { name: 'listWorkspaceIds', run: (db) => totals.listWorkspaceIds(db) },
        { name: 'staffIdsAfter', run: (db) => totals.staffIdsAfter(db, WORKSPACE, STAFF, 100) },
        { name: 'completedShiftsOf', run: (db) => totals.completedShiftsOf(db, WORKSPACE, [STAFF]) },
        {
          name: 'readStaffWorked',
          run: (db) =>
            totals.readStaffWorked(
              db,
              { ...AUDIENCE, staffId: STAFF },
              [{ grain: 'week', from: NOW - 168 * HOUR, to: NOW }],
              [{ start: NOW - 2 * HOUR, end: NOW }],
            ),
        },
        {
          name: 'readWorkspaceWorked',
          run: (db) =>
            totals.readWorkspaceWorked(
              db,
              { ...AUDIENCE, staffIds: [STAFF, 'staff-2'] },
              {
                period: { start: NOW - 170 * HOUR, end: NOW },
                run: { grain: 'day', from: NOW - 168 * HOUR, to: NOW - 24 * HOUR },
                edges: [{ start: NOW - 170 * HOUR, end: NOW - 168 * HOUR }],
              },
              NOW - 300_000,
            ),
        },
      ],
    },
    {
      file: 'webhooks',
      samples: [
        { name: 'findSubscribers', run: (db) => outbox.findSubscribers(db, [WORKSPACE], 'activity.shift.ended') },
        {
          name: 'writeWebhookEvents',
          run: (db) => outbox.writeWebhookEvents(db, [EVENT], new Map([[WORKSPACE, ['endpoint-1', 'endpoint-2']]])),
        },
        {
          name: 'claimDueDeliveries',
          run: (db) =>
            webhooks.claimDueDeliveries(storeOf(db, dialectOf(db)), {
              now: NOW,
              limit: 16,
              leaseMs: 60_000,
              owner: 'instance-1',
              perEndpoint: 4,
              busy: new Map([['endpoint-1', 4]]),
            }),
        },
        {
          name: 'claimDueDeliveries (deliveries due)',
          answer: { id: 'delivery-1', endpoint_id: 'endpoint-2', event_id: 'event-1', attempts: 0, expires_at: NOW },
          run: (db) =>
            webhooks.claimDueDeliveries(storeOf(db, dialectOf(db)), {
              now: NOW,
              limit: 16,
              leaseMs: 60_000,
              owner: 'instance-1',
              perEndpoint: 4,
              busy: new Map([['endpoint-1', 4]]),
            }),
        },
        {
          name: 'recordAttempts',
          run: (db) =>
            webhooks.recordAttempts(db, dialectOf(db), [
              {
                deliveryId: 'delivery-1',
                owner: 'instance-1',
                attempt: 1,
                startedAt: NOW,
                finishedAt: NOW + 120,
                durationMs: 120,
                status: 200,
                error: null,
                excerpt: 'ok',
                outcome: 'delivered',
                nextAttemptAt: NOW,
              },
            ]),
        },
        { name: 'bringDeliveriesForward', run: (db) => webhooks.bringDeliveriesForward(db, ['endpoint-1', 'endpoint-2'], NOW) },
        { name: 'releaseClaims', run: (db) => webhooks.releaseClaims(storeOf(db, dialectOf(db)).write, ['delivery-1'], 'instance-1') },
        { name: 'pendingBacklog', run: (db) => webhooks.pendingBacklog(db) },
      ],
    },
    {
      file: 'idempotency',
      samples: [
        {
          name: 'takeKey',
          run: (db) => db.transaction().execute((trx) => records.takeKey(trx, RESULT.scope, RESULT.key, 'fingerprint', NOW).catch(() => null)),
        },
        { name: 'storeResult', run: (db) => db.transaction().execute((trx) => records.storeResult(trx, RESULT)) },
        { name: 'purgeExpiredRecords', run: (db) => records.purgeExpiredRecords(db, { now: () => NOW }, 1000) },
      ],
    },
    formsSnapshots,
    intakeSnapshots,
    {
      file: 'erasure',
      samples: [
        { name: 'findStaff', run: (db) => erasure.findStaff(db, '1001') },
        { name: 'findSubmissionCandidates', run: (db) => erasure.findSubmissionCandidates(db, '1001', ['"gameUserId":"1001"']) },
        { name: 'anonymiseStaff', run: (db) => erasure.anonymiseStaff(db, STAFF, `erased-${STAFF}`) },
        { name: 'replaceNoticeReasons', run: (db) => erasure.replaceNoticeReasons(db, [STAFF], 'erased') },
        {
          name: 'eraseSubmission',
          run: (db) => erasure.eraseSubmission(db, 'submission-1', { applicant: '{"gameUserId":null}', answers: '{}' }),
        },
        { name: 'findCommandCopies', run: (db) => erasure.findCommandCopies(db, ['submission-1'], ['"gameUserId":"1001"']) },
        { name: 'findEventCopies', run: (db) => erasure.findEventCopies(db, ['command-1'], ['"gameUserId":"1001"']) },
        { name: 'findWebhookCopies', run: (db) => erasure.findWebhookCopies(db, ['1001', 'submission-1']) },
        { name: 'findResponseCopies', run: (db) => erasure.findResponseCopies(db, ['1001', 'submission-1']) },
        { name: 'setCommandPayload', run: (db) => erasure.setCommandPayload(db, 'command-1', '{}') },
        { name: 'setEventPayload', run: (db) => erasure.setEventPayload(db, 'event-1', '{}') },
        { name: 'setWebhookBody', run: (db) => erasure.setWebhookBody(db, 'event-1', '{}') },
        { name: 'setResponseBody', run: (db) => erasure.setResponseBody(db, { scope: 'scope-1', key: 'key-1' }, '{}') },
        { name: 'findReceiverAnswers', run: (db) => erasure.findReceiverAnswers(db, ['event-1']) },
        { name: 'clearDeliveryAnswer', run: (db) => erasure.clearDeliveryAnswer(db, 'delivery-1') },
        { name: 'clearAttemptAnswer', run: (db) => erasure.clearAttemptAnswer(db, 'attempt-1') },
        { name: 'insertErasure', run: (db) => erasure.insertErasure(db, { id: 'erasure-1', ranAt: NOW, changes: '{}' }) },
      ],
    },
    applicationsSnapshots,
    queueSnapshots,
    {
      file: 'reports',
      samples: [
        { name: 'earliestLiveSeen', run: (db) => reports.earliestLiveSeen(db, AUDIENCE, NOW - 300_000) },
        {
          name: 'listRankedStaffIds',
          run: (db) => reports.listRankedStaffIds(db, WORKSPACE, { statuses: ['active'], departmentId: 'department-1' }),
        },
        {
          name: 'findApprovedNotices',
          run: (db) => reports.findApprovedNotices(db, [STAFF], { start: NOW - 168 * HOUR, end: NOW }),
        },
      ],
    },
    {
      file: 'shared-reads',
      samples: [
        { name: 'findWorkspace', run: (db) => workspace.findWorkspace(db, WORKSPACE) },
        { name: 'bumpActivityVersion', run: (db) => workspace.bumpActivityVersion(db, [WORKSPACE]) },
        { name: 'findStaffByChatUser', run: (db) => staff.findStaffByChatUser(db, WORKSPACE, 'chat-user-1') },
        { name: 'findStaffByGameUser', run: (db) => staff.findStaffByGameUser(db, WORKSPACE, '1001') },
        { name: 'findStaffProfiles', run: (db) => staff.findStaffProfiles(db, WORKSPACE, [STAFF, 'staff-2']) },
        {
          name: 'findApiKey (a key looked up)',
          run: (db) =>
            createApiKeyAuthenticator({ db, clock: { now: () => NOW } })
              .apiKey(`Bearer wsk_test_${'a'.repeat(32)}`)
              .catch(() => null),
        },
      ],
    },
  ];
}

function dialectOf(db: Db): SnapshotDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
