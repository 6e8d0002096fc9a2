-- recordKnownHeartbeat

-- recordKnownHeartbeatWithResult
with change as (
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
  (scope, key, fingerprint, response_status, response_body, request_id, created_at, state, locked_until)
select $24::text, $25::text, $26::text, $27::integer, $28::text, $29::text, $30::bigint, 'completed', 0
from change
returning scope, key;
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,1773230400000,"application-1","test",1773230400000,"server-1","key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"app:application-1:test","idempotency-key-1","app:application-1:test","idempotency-key-1","app:application-1:test","idempotency-key-1","fingerprint",200,"{\"data\":{}}","req_0000000000000000",1773230400000]

-- recordKnownHeartbeatsWithResults
with change as (
  update shifts
  set last_heartbeat_at = h.hb_recorded_at, last_seen_at = h.hb_seen_at
  from json_to_recordset($1::json) as h(hb_id text, hb_recorded_at bigint, hb_seen_at bigint, hb_stale_before bigint, hb_application_id text, hb_environment text, hb_server_id text, hb_key_hash text, hb_key_id text, hb_key_environment text, hb_scopes text, hb_key_application_id text, hb_application_name text, hb_workspace_id text, hb_features text, hb_allowed_universe_ids text, hb_scope text, hb_key text, hb_fingerprint text, hb_status integer, hb_body text, hb_request_id text, hb_now bigint)
  where id = h.hb_id
    and (case when status = 'active' then last_seen_at end) >= h.hb_stale_before
    and last_heartbeat_at <= h.hb_recorded_at
    and application_id = h.hb_application_id and environment = h.hb_environment and started_at <= h.hb_recorded_at
    and server_id = coalesce(h.hb_server_id, server_id)
    and exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = h.hb_key_hash and k.id = h.hb_key_id and k.environment = h.hb_key_environment and k.scopes = h.hb_scopes
        and a.id = h.hb_key_application_id and a.name = h.hb_application_name and a.workspace_id = h.hb_workspace_id
        and a.features = h.hb_features and a.allowed_universe_ids = h.hb_allowed_universe_ids
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > h.hb_now) and a.approved = 1)
    and pg_try_advisory_xact_lock(
         ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || h.hb_scope || chr(10) || h.hb_key, 'UTF8')), 'hex'), 16))::bit(64)::bigint
       )
    and not exists (select 1 from idempotency_records where scope = h.hb_scope and key = h.hb_key)
  returning h.hb_scope, h.hb_key, h.hb_fingerprint, h.hb_status, h.hb_body, h.hb_request_id, h.hb_now
)
insert into idempotency_records
  (scope, key, fingerprint, response_status, response_body, request_id, created_at, state, locked_until)
select hb_scope, hb_key, hb_fingerprint, hb_status, hb_body, hb_request_id, hb_now, 'completed', 0
from change
returning scope, key;
-- values: ["[{\"hb_id\":\"shift-1\",\"hb_recorded_at\":1773230400000,\"hb_seen_at\":1773230400000,\"hb_stale_before\":1773230100000,\"hb_application_id\":\"application-1\",\"hb_environment\":\"test\",\"hb_server_id\":\"server-1\",\"hb_key_hash\":\"key-hash\",\"hb_key_id\":\"key-1\",\"hb_key_environment\":\"test\",\"hb_scopes\":\"[\\\"activity:write\\\"]\",\"hb_key_application_id\":\"application-1\",\"hb_application_name\":\"Game\",\"hb_workspace_id\":\"workspace-1\",\"hb_features\":\"{\\\"activity\\\":true}\",\"hb_allowed_universe_ids\":\"[\\\"42\\\"]\",\"hb_scope\":\"app:application-1:test\",\"hb_key\":\"idempotency-key-1\",\"hb_fingerprint\":\"fingerprint\",\"hb_status\":200,\"hb_body\":\"{\\\"data\\\":{}}\",\"hb_request_id\":\"req_0000000000000000\",\"hb_now\":1773230400000},{\"hb_id\":\"shift-2\",\"hb_recorded_at\":1773230400000,\"hb_seen_at\":1773230400000,\"hb_stale_before\":1773230100000,\"hb_application_id\":\"application-1\",\"hb_environment\":\"test\",\"hb_server_id\":\"server-1\",\"hb_key_hash\":\"key-hash\",\"hb_key_id\":\"key-1\",\"hb_key_environment\":\"test\",\"hb_scopes\":\"[\\\"activity:write\\\"]\",\"hb_key_application_id\":\"application-1\",\"hb_application_name\":\"Game\",\"hb_workspace_id\":\"workspace-1\",\"hb_features\":\"{\\\"activity\\\":true}\",\"hb_allowed_universe_ids\":\"[\\\"42\\\"]\",\"hb_scope\":\"app:application-1:test\",\"hb_key\":\"key-2\",\"hb_fingerprint\":\"fingerprint\",\"hb_status\":200,\"hb_body\":\"{\\\"data\\\":{}}\",\"hb_request_id\":\"req_0000000000000000\",\"hb_now\":1773230400000}]"]
