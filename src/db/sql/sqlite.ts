/**
 * The hot paths' statements on SQLite, as they run: `?` takes the statement's values in order (see
 * index.ts for what each takes and returns). The store keeps each prepared once (src/db/statement-cache.ts).
 * The texts match PostgreSQL's (postgres.ts, which says why a shift is found "active and live" the way it is)
 * where the two dialects allow.
 *
 * Every value is written `+?` (the no-op unary plus), never a bare `?`. When SQLite's planner compares a bare
 * parameter with a constant while planning (it does for a join, for a partial index, for an ORDER BY ... LIMIT),
 * it marks the statement to be compiled again whenever that parameter is bound anew: a statement kept prepared
 * was then parsed and planned on every run (a heartbeat at 700 a second spent 12% of the gateway's CPU there).
 * `+?` is an expression, not a parameter, to that check, and plans the same (test/db/named-statements.test.ts
 * compares each statement's plan with its bare-parameter twin; sql-snapshots.test.ts holds the rule).
 */
import { DELIVERY_RESULT_SET, DELIVERY_RESULT_WHERE, PENDING_STATUS_LIST, STAFF_PROFILE_SELECT } from './fragments.ts';
import type { SqliteStatements, StatementTexts } from './index.ts';

export const SQLITE_STATEMENTS: StatementTexts<SqliteStatements> = {
  findWorkspace: `
select * from workspaces where id = +?`,

  findStaffByGameUser: `
${STAFF_PROFILE_SELECT}
where s.workspace_id = +? and s.game_user_id = +?`,

  // A literal limit: SQLite sorts for a bound LIMIT with a general sorter, several times slower than its top-1 path.
  findStaffByChatUser: `
${STAFF_PROFILE_SELECT}
where s.workspace_id = +? and s.chat_user_id = +?
order by s.created_at, s.id
limit 1`,

  findStaffProfiles: `
${STAFF_PROFILE_SELECT}
where s.id in (select value from json_each(+?))`,

  findApprovedNotices: `
select id, staff_id, starts_at, ends_at, reason
from inactivity_notices
where staff_id in (select value from json_each(+?))
  and status = 'approved' and ends_at > +? and starts_at < +?`,

  findApiKey: `
select k.id as key_id, k.environment, k.scopes, k.revoked, k.expires_at,
       a.id as application_id, a.name as application_name, a.workspace_id, a.approved, a.features,
       a.allowed_universe_ids
from api_keys as k
join applications as a on a.id = k.application_id
where k.key_hash = +?`,

  // The store's one writing process holds its keys in memory (src/idempotency/index.ts): here the key is free.
  takeIdempotencyKey: `
select 1 as locked, r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = +? and r.key = +?`,

  storeIdempotentResult: `
insert into idempotency_records
  (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
values (+?, +?, +?, 'completed', +?, +?, +?, +?, 0)
on conflict (scope, key) do update set
  fingerprint = excluded.fingerprint, state = 'completed', response_status = excluded.response_status,
  response_body = excluded.response_body, request_id = excluded.request_id, created_at = excluded.created_at,
  locked_until = 0
where idempotency_records.created_at <= +?
returning key`,

  startShift: `
insert into shifts
  (id, workspace_id, application_id, environment, staff_id, universe_id, place_id, server_id, status,
   started_at, last_heartbeat_at, last_seen_at, ended_at, end_reason, created_at)
values (+?, +?, +?, +?, +?, +?, +?, +?, 'active', +?, +?, +?, null, null, +?)
on conflict (application_id, environment, staff_id) where status = 'active' do nothing
returning id`,

  lockShifts: `
select id from shifts where id in (select value from json_each(+?)) order by id`,

  findActiveShift: `
select * from shifts
where application_id = +? and environment = +? and staff_id = +? and status = 'active'`,

  recordHeartbeat: `
update shifts
set last_heartbeat_at = max(last_heartbeat_at, +?), last_seen_at = +?
where id = +?
  and (case when status = 'active' then last_seen_at end) >= +?
  and application_id = +? and environment = +? and started_at <= +?
  and server_id = coalesce(+?, server_id)
returning id, last_heartbeat_at`,

  recordHeartbeats: `
update shifts
set last_heartbeat_at = max(last_heartbeat_at, +?), last_seen_at = +?
where id in (select value from json_each(+?))
  and (case when status = 'active' then last_seen_at end) >= +?
  and application_id = +? and environment = +? and started_at <= +?
  and server_id = +?
returning id, last_heartbeat_at`,

  recordKnownHeartbeat: `
update shifts
set last_heartbeat_at = +?, last_seen_at = +?
where id = +?
  and (case when status = 'active' then last_seen_at end) >= +?
  and last_heartbeat_at <= +?
  and application_id = +? and environment = +? and started_at <= +?
  and server_id = coalesce(+?, server_id)
  and exists (
    select 1 from api_keys as k
    join applications as a on a.id = k.application_id
    where k.key_hash = +? and k.id = +? and k.environment = +? and k.scopes = +? and k.revoked = 0
      and (k.expires_at is null or k.expires_at > +?)
      and a.id = +? and a.name = +? and a.workspace_id = +? and a.approved = 1 and a.features = +?
      and a.allowed_universe_ids = +?)
  and not exists (select 1 from idempotency_records where scope = +? and key = +?)
returning id`,

  stopShift: `
update shifts
set status = 'completed', ended_at = +?, end_reason = +?
where id = +?
  and (case when status = 'active' then last_seen_at end) >= +?
  and application_id = +? and environment = +? and started_at <= +?
returning *`,

  lockWorkspacesForTotals: `
update workspaces set activity_version = activity_version + 1
where id in (select value from json_each(+?))
returning id, timezone, activity_version`,

  // An INSERT … SELECT with an upsert clause needs a WHERE to be read as one (SQLite's grammar).
  addToTotals: `
insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
select value ->> 'workspace_id', value ->> 'environment', value ->> 'grain', value ->> 'bucket_start',
       value ->> 'staff_id', value ->> 'worked_ms', value ->> 'started_shifts', value ->> 'carried_shifts'
from json_each(+?)
where true
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts`,

  raiseLongestShifts: `
insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
select value ->> 'workspace_id', value ->> 'environment', value ->> 'longest_shift_ms'
from json_each(+?)
where true
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms`,

  insertActivityChanges: `
insert into activity_changes (workspace_id, version, staff_id)
select value ->> 'workspace_id', value ->> 'version', value ->> 'staff_id'
from json_each(+?)`,

  findEndpointsWithStaff: `
select e.id, e.workspace_id, e.events, s.display_name, s.game_user_id
from webhook_endpoints as e
join staff as s on s.id = +?
where e.workspace_id = +? and e.enabled = 1`,

  findEnabledEndpoints: `
select id, workspace_id, events from webhook_endpoints
where workspace_id in (select value from json_each(+?)) and enabled = 1`,

  insertWebhookEvents: `
insert into webhook_events (id, workspace_id, type, environment, body, created_at)
select value ->> 'id', value ->> 'workspace_id', value ->> 'type', value ->> 'environment', value ->> 'body',
       value ->> 'created_at'
from json_each(+?)`,

  insertWebhookDeliveries: `
insert into webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, status, attempts, next_attempt_at, expires_at, created_at, updated_at)
select value ->> 'id', value ->> 'event_id', value ->> 'endpoint_id', value ->> 'workspace_id', 'pending', 0,
       value ->> 'next_attempt_at', value ->> 'expires_at', value ->> 'created_at', value ->> 'updated_at'
from json_each(+?)`,

  findDueDelivery: `
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= +? and (claimed_until is null or claimed_until <= +?)
  and endpoint_id not in (select value from json_each(+?))
limit 1`,

  findDueDeliveries: `
select id, endpoint_id from webhook_deliveries
where status = 'pending' and next_attempt_at <= +? and (claimed_until is null or claimed_until <= +?)
  and endpoint_id not in (select value from json_each(+?))
order by next_attempt_at
limit +?`,

  claimDeliveries: `
update webhook_deliveries set claimed_until = +?, claimed_by = +?
where id in (select value from json_each(+?))`,

  findClaimedDeliveries: `
select d.id, d.event_id, d.endpoint_id, d.attempts, d.expires_at, p.url, p.secret, e.body
from webhook_deliveries as d
join webhook_events as e on e.id = d.event_id
join webhook_endpoints as p on p.id = d.endpoint_id
where d.id in (select value from json_each(+?))`,

  insertWebhookAttempts: `
insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt)
select value ->> 'id', value ->> 'delivery_id', value ->> 'attempt', value ->> 'started_at', value ->> 'duration_ms',
       value ->> 'status', value ->> 'error', value ->> 'response_excerpt'
from json_each(+?)`,

  recordDeliveryResults: `
with results as (
  select value ->> 'id' as id, value ->> 'owner' as owner, value ->> 'outcome' as outcome,
         value ->> 'attempt' as attempt, value ->> 'next_attempt_at' as next_attempt_at, value ->> 'status' as status,
         value ->> 'duration_ms' as duration_ms, value ->> 'excerpt' as excerpt, value ->> 'error' as error,
         value ->> 'finished_at' as finished_at, value ->> 'delivered_at' as delivered_at
  from json_each(+?)
)
${DELIVERY_RESULT_SET}
from results
${DELIVERY_RESULT_WHERE}`,

  findForm: `
select id, workspace_id, name, slug, status, description, department_id, cooldown_days, questions
from application_forms where id = +? and workspace_id = +?`,

  findPendingSubmission: `
select id from submissions
where form_id = +? and environment = +? and game_user_id = +? and status in ${PENDING_STATUS_LIST}`,

  findLastRejection: `
select rejected_at from submissions
where form_id = +? and environment = +? and game_user_id = +? and status = 'rejected' and rejected_at is not null
order by rejected_at desc
limit 1`,

  insertSubmissionUnlessPending: `
insert into submissions (id, workspace_id, status, score, reviewer_notes, applicant, answers, created_at, reviewed_at,
  accepted_at, rejected_at, staff_profile_id, updated_at, form_id, environment, game_user_id)
values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?)
on conflict do nothing
returning id`,

  insertCommand: `
insert into commands (id, workspace_id, type, actor_type, actor_id, submission_id, request_id, idempotency_key, payload,
  created_at)
values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?)`,

  insertEvent: `
insert into events (id, workspace_id, command_id, type, payload, created_at) values (+?, +?, +?, +?, +?, +?)`,
};
