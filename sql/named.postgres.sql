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
where id = any(array(
    select id from shifts where id in (select json_array_elements_text($3::json)) order by id for no key update))
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
