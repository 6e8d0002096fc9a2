-- recordKnownHeartbeat
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
      where k.key_hash = +? and k.id = +? and k.environment = +? and k.scopes = +?
        and a.id = +? and a.name = +? and a.workspace_id = +?
        and a.features = +? and a.allowed_universe_ids = +?
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > +?) and a.approved = 1)
    and not exists (select 1 from idempotency_records where scope = +? and key = +?)
  returning id;
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,1773230400000,"application-1","test",1773230400000,"server-1","key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"app:application-1:test","idempotency-key-1"]

-- recordKnownHeartbeatWithResult

-- recordKnownHeartbeatsWithResults
