-- takeKey
select pg_try_advisory_xact_lock(
         ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || $1 || chr(10) || $2, 'UTF8')), 'hex'), 16))::bit(64)::bigint
       ) as locked,
       r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = $3 and r.key = $4;
-- values: ["app:application-1:test","idempotency-key-1","app:application-1:test","idempotency-key-1"]
select pg_try_advisory_xact_lock(
         ('x' || left(encode(sha256(convert_to('idempotency' || chr(10) || $1 || chr(10) || $2, 'UTF8')), 'hex'), 16))::bit(64)::bigint
       ) as locked, exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = $3 and k.id = $4 and k.environment = $5 and k.scopes = $6
        and a.id = $7 and a.name = $8 and a.workspace_id = $9
        and a.features = $10 and a.allowed_universe_ids = $11
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > $12) and a.approved = 1) as holds,
       r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = $13 and r.key = $14;
-- values: ["app:application-1:test","idempotency-key-1","key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"app:application-1:test","idempotency-key-1"]

-- storeResult
insert into idempotency_records
  (scope, key, fingerprint, response_status, response_body, request_id, created_at, state, locked_until)
values ($1, $2, $3, $4, $5, $6, $7, 'completed', 0)
on conflict (scope, key) do update set
  fingerprint = excluded.fingerprint, state = 'completed', response_status = excluded.response_status,
  response_body = excluded.response_body, request_id = excluded.request_id, created_at = excluded.created_at,
  locked_until = 0
where idempotency_records.created_at <= $8
returning key;
-- values: ["app:application-1:test","idempotency-key-1","fingerprint",200,"{\"data\":{}}","req_0000000000000000",1773230400000,1773144000000]

-- purgeExpiredRecords

      delete from idempotency_records where (scope, key) in (
        select scope, key from idempotency_records where created_at < $1 order by created_at limit $2);
-- values: [1773144000000,1000]
