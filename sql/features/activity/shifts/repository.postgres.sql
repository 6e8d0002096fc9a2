-- findOwnedShift
select * from "shifts" where "id" = $1 and "application_id" = $2 and "environment" = $3;
-- values: ["shift-1","application-1","test"]

-- findOwnedShifts
select * from "shifts" where "id" in ($1, $2) and "application_id" = $3 and "environment" = $4;
-- values: ["shift-1","shift-2","application-1","test"]

-- findActiveShift
select * from shifts
where application_id = $1 and environment = $2 and staff_id = $3 and status = 'active';
-- values: ["application-1","test","staff-1"]

-- findActiveShiftsOfServer
select * from "shifts" where "application_id" = $1 and "environment" = $2 and "status" = 'active' and "server_id" = $3;
-- values: ["application-1","test","server-1"]

-- lockShifts
select id from shifts where id = any(array(select json_array_elements_text($1::json))) order by id
for no key update;
-- values: ["[\"shift-1\",\"shift-2\"]"]

-- recordHeartbeat
update shifts
set last_heartbeat_at = greatest(last_heartbeat_at, $1), last_seen_at = $2
where id = $3
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
  and server_id = coalesce($8, server_id)
returning id, last_heartbeat_at;
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,"application-1","test",1773230400000,"server-1"]

-- recordHeartbeats
update shifts
set last_heartbeat_at = greatest(last_heartbeat_at, $1), last_seen_at = $2
where id = any(array(select json_array_elements_text($3::json)))
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
  and server_id = $8
returning id, last_heartbeat_at;
-- values: [1773230400000,1773230400000,"[\"shift-1\",\"shift-2\"]",1773230100000,"application-1","test",1773230400000,"server-1"]

-- recordKnownHeartbeat

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
      where k.key_hash = $10 and k.id = $11 and k.environment = $12 and k.scopes = $13
        and a.id = $14 and a.name = $15 and a.workspace_id = $16
        and a.features = $17 and a.allowed_universe_ids = $18
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > $19) and a.approved = 1)
    and pg_try_advisory_xact_lock(
         ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || $20 || chr(10) || $21, 'UTF8')), 'hex'), 16))::bit(64)::bigint
       )
    and not exists (select 1 from idempotency_records where scope = $22 and key = $23)
  returning id
)
insert into idempotency_records
  (scope, key, fingerprint, state, response_status, response_body, request_id, created_at, locked_until)
select $24::text, $25::text, $26::text, 'completed', $27::integer, $28::text, $29::text, $30::bigint, 0
from heartbeat
returning key;
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,1773230400000,"application-1","test",1773230400000,"server-1","key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"app:application-1:test","idempotency-key-1","app:application-1:test","idempotency-key-1","app:application-1:test","idempotency-key-1","fingerprint",200,"{\"data\":{}}","req_0000000000000000",1773230400000]

-- findVisibleShift
select "sh".*, "st"."display_name" as "staff_display_name", "st"."game_user_id" as "staff_game_user_id" from "shifts" as "sh" inner join "staff" as "st" on "st"."id" = "sh"."staff_id" where "sh"."id" = $1 and "sh"."workspace_id" = $2 and "sh"."environment" = $3;
-- values: ["shift-1","workspace-1","test"]

-- listLiveShifts
select "sh".*, "st"."display_name" as "staff_display_name", "st"."game_user_id" as "staff_game_user_id" from "shifts" as "sh" inner join "staff" as "st" on "st"."id" = "sh"."staff_id" where "sh"."workspace_id" = $1 and "sh"."environment" = $2 and (sh.status = 'active' and sh.last_seen_at >= $3) and ("sh"."started_at" > $4 or ("sh"."started_at" = $5 and "sh"."id" > $6)) order by "sh"."started_at", "sh"."id" limit $7;
-- values: ["workspace-1","test",1773230100000,1773226800000,1773226800000,"shift-1",51]
