-- takeKey
select 1 as locked,
       r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = +? and r.key = +?;
-- values: ["app:application-1:test","idempotency-key-1"]
select 1 as locked, exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = +? and k.id = +? and k.environment = +? and k.scopes = +?
        and a.id = +? and a.name = +? and a.workspace_id = +?
        and a.features = +? and a.allowed_universe_ids = +?
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > +?) and a.approved = 1) as holds,
       r.fingerprint, r.response_status, r.response_body, r.created_at
from (select 1) as one
left join idempotency_records as r on r.scope = +? and r.key = +?;
-- values: ["key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"app:application-1:test","idempotency-key-1"]

-- storeResult
insert into idempotency_records
  (scope, key, fingerprint, response_status, response_body, request_id, created_at, state, locked_until)
values (+?, +?, +?, +?, +?, +?, +?, 'completed', 0)
on conflict (scope, key) do update set
  fingerprint = excluded.fingerprint, state = 'completed', response_status = excluded.response_status,
  response_body = excluded.response_body, request_id = excluded.request_id, created_at = excluded.created_at,
  locked_until = 0
where idempotency_records.created_at <= +?
returning key;
-- values: ["app:application-1:test","idempotency-key-1","fingerprint",200,"{\"data\":{}}","req_0000000000000000",1773230400000,1773144000000]

-- purgeExpiredRecords

      delete from idempotency_records where (scope, key) in (
        select scope, key from idempotency_records where created_at < +? order by created_at limit +?);
-- values: [1773144000000,1000]
