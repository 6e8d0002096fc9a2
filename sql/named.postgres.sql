-- findWorkspace
select * from workspaces where id = $1;

-- findStaffByGameUser
select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = $1 and s.game_user_id = $2;

-- findStaffByChatUser
select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = $1 and s.chat_user_id = $2
order by s.created_at, s.id
limit 1;

-- findStaffProfiles
select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.id = any(array(select json_array_elements_text($1::json)));

-- findApprovedNotices
select id, staff_id, starts_at, ends_at, reason
from inactivity_notices
where staff_id = any(array(select json_array_elements_text($1::json)))
  and status = 'approved' and ends_at > $2 and starts_at < $3;

-- findApiKey
select k.id as key_id, k.environment, k.scopes, k.revoked, k.expires_at,
       a.id as application_id, a.name as application_name, a.workspace_id, a.approved, a.features,
       a.allowed_universe_ids
from api_keys as k
join applications as a on a.id = k.application_id
where k.key_hash = $1;

-- takeIdempotencyKey
select pg_try_advisory_xact_lock(
         ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || $1 || chr(10) || $2, 'UTF8')), 'hex'), 16))::bit(64)::bigint
       ) as locked,
       r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = $1 and r.key = $2;

-- storeIdempotentResult
insert into idempotency_records
  (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
values ($1, $2, $3, 'completed', $4, $5, $6, $7, 0)
on conflict (scope, key) do update set
  fingerprint = excluded.fingerprint, state = 'completed', response_status = excluded.response_status,
  response_body = excluded.response_body, request_id = excluded.request_id, created_at = excluded.created_at,
  locked_until = 0
where idempotency_records.created_at <= $8
returning key;

-- startShift
insert into shifts
  (id, workspace_id, application_id, environment, staff_id, universe_id, place_id, server_id, status,
   started_at, last_heartbeat_at, last_seen_at, ended_at, end_reason, created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, 'active', $9, $10, $11, null, null, $12)
on conflict (application_id, environment, staff_id) where status = 'active' do nothing
returning id;

-- lockShifts
select id from shifts
where id = any(array(select json_array_elements_text($1::json)))
order by id
for no key update;

-- findActiveShift
select * from shifts
where application_id = $1 and environment = $2 and staff_id = $3 and status = 'active';

-- recordHeartbeat
update shifts
set last_heartbeat_at = greatest(last_heartbeat_at, $1), last_seen_at = $2
where id = $3
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
  and server_id = coalesce($8, server_id)
returning id, last_heartbeat_at;

-- recordHeartbeats
update shifts
set last_heartbeat_at = greatest(last_heartbeat_at, $1), last_seen_at = $2
where id = any(array(select json_array_elements_text($3::json)))
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
  and server_id = $8
returning id, last_heartbeat_at;

-- recordKnownHeartbeatWithResult
with heartbeat as (
  update shifts
  set last_heartbeat_at = $1, last_seen_at = $2
  where id = $3
    and (case when status = 'active' then last_seen_at end) >= $4
    and last_heartbeat_at <= $5
    and application_id = $6 and environment = $7 and started_at <= $8
    and server_id = coalesce($9, server_id)
    and exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = $10 and k.id = $11 and k.environment = $12 and k.scopes = $13 and k.revoked = 0
        and (k.expires_at is null or k.expires_at > $14)
        and a.id = $15 and a.name = $16 and a.workspace_id = $17 and a.approved = 1 and a.features = $18
        and a.allowed_universe_ids = $19)
    and pg_try_advisory_xact_lock(
          ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || $20 || chr(10) || $21, 'UTF8')), 'hex'), 16))::bit(64)::bigint)
    and not exists (select 1 from idempotency_records where scope = $20 and key = $21)
  returning id
)
insert into idempotency_records
  (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
select $20::text, $21::text, $22::text, 'completed', $23::integer, $24::text, $25::text, $26::bigint, 0
from heartbeat
returning key;

-- stopShift
update shifts
set status = 'completed', ended_at = $1, end_reason = $2
where id = $3
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
returning *;

-- lockWorkspacesForTotals
update workspaces set activity_version = activity_version + 1
where id = any(array(select json_array_elements_text($1::json)))
returning id, timezone, activity_version;

-- addToTotals
insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
select workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts
from json_to_recordset($1::json) as r(
  workspace_id text, environment text, grain text, bucket_start bigint, staff_id text,
  worked_ms bigint, started_shifts integer, carried_shifts integer)
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts;

-- raiseLongestShifts
insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
select workspace_id, environment, longest_shift_ms
from json_to_recordset($1::json) as r(workspace_id text, environment text, longest_shift_ms bigint)
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms;

-- insertActivityChanges
insert into activity_changes (workspace_id, version, staff_id)
select workspace_id, version, staff_id
from json_to_recordset($1::json) as r(workspace_id text, version bigint, staff_id text);

-- findEndpointsWithStaff
select e.id, e.workspace_id, e.events, s.display_name, s.game_user_id
from webhook_endpoints as e
join staff as s on s.id = $1
where e.workspace_id = $2 and e.enabled = 1;

-- findEnabledEndpoints
select id, workspace_id, events from webhook_endpoints
where workspace_id = any(array(select json_array_elements_text($1::json))) and enabled = 1;

-- insertWebhookEvents
insert into webhook_events (id, workspace_id, type, environment, body, created_at)
select id, workspace_id, type, environment, body, created_at
from json_to_recordset($1::json) as r(id text, workspace_id text, type text, environment text, body text, created_at bigint);

-- insertWebhookDeliveries
insert into webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, status, attempts, next_attempt_at, expires_at, created_at, updated_at)
select id, event_id, endpoint_id, workspace_id, 'pending', 0, next_attempt_at, expires_at, created_at, updated_at
from json_to_recordset($1::json) as r(
  id text, event_id text, endpoint_id text, workspace_id text, next_attempt_at bigint, expires_at bigint,
  created_at bigint, updated_at bigint);

-- findDueDelivery
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= $1 and (claimed_until is null or claimed_until <= $2)
  and endpoint_id not in (select json_array_elements_text($3::json))
limit 1;

-- useOutboxIndexes
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;

-- findDueDeliveries
select id, endpoint_id from webhook_deliveries
where status = 'pending' and next_attempt_at <= $1 and (claimed_until is null or claimed_until <= $2)
  and endpoint_id not in (select json_array_elements_text($3::json))
order by next_attempt_at
limit $4
for update skip locked;

-- claimDeliveries
update webhook_deliveries set claimed_until = $1, claimed_by = $2
where id = any(array(select json_array_elements_text($3::json)));

-- findClaimedDeliveries
select d.id, d.event_id, d.endpoint_id, d.attempts, d.expires_at, p.url, p.secret, e.body
from webhook_deliveries as d
join webhook_events as e on e.id = d.event_id
join webhook_endpoints as p on p.id = d.endpoint_id
where d.id = any(array(select json_array_elements_text($1::json)));

-- insertWebhookAttempts
insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt)
select id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt
from json_to_recordset($1::json) as r(
  id text, delivery_id text, attempt integer, started_at bigint, duration_ms integer, status integer, error text,
  response_excerpt text);

-- recordDeliveryResults
update webhook_deliveries set
  status = results.outcome,
  attempts = results.attempt,
  next_attempt_at = results.next_attempt_at,
  claimed_until = null,
  claimed_by = null,
  last_status = results.status,
  last_duration_ms = results.duration_ms,
  last_response = results.excerpt,
  last_error = results.error,
  updated_at = results.finished_at,
  delivered_at = coalesce(results.delivered_at, webhook_deliveries.delivered_at)
from json_to_recordset($1::json) as results(
  id text, owner text, outcome text, attempt integer, next_attempt_at bigint, status integer, duration_ms integer,
  excerpt text, error text, finished_at bigint, delivered_at bigint)
where webhook_deliveries.id = results.id
  and webhook_deliveries.claimed_by = results.owner;

-- findForm
select id, workspace_id, name, slug, status, description, department_id, cooldown_days, questions
from application_forms where id = $1 and workspace_id = $2;

-- findPendingSubmission
select id from submissions
where form_id = $1 and environment = $2 and game_user_id = $3 and status in ('submitted', 'under_review');

-- findLastRejection
select rejected_at from submissions
where form_id = $1 and environment = $2 and game_user_id = $3 and status = 'rejected' and rejected_at is not null
order by rejected_at desc
limit 1;

-- insertSubmissionUnlessPending
insert into submissions (id, workspace_id, status, score, reviewer_notes, applicant, answers, created_at, reviewed_at,
  accepted_at, rejected_at, staff_profile_id, updated_at, form_id, environment, game_user_id)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
on conflict do nothing
returning id;

-- insertCommand
insert into commands (id, workspace_id, type, actor_type, actor_id, submission_id, request_id, idempotency_key, payload,
  created_at)
values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- insertEvent
insert into events (id, workspace_id, command_id, type, payload, created_at) values ($1, $2, $3, $4, $5, $6);
