-- startShift
insert into shifts
  (id, workspace_id, application_id, environment, staff_id, universe_id, place_id, server_id, status,
   started_at, last_heartbeat_at, last_seen_at, ended_at, end_reason, created_at)
values (+?, +?, +?, +?, +?, +?,
  +?, +?, 'active', +?, +?, +?, null, null,
  +?)
on conflict (application_id, environment, staff_id) where status = 'active' do nothing
returning id;
-- values: ["shift-1","workspace-1","application-1","test","staff-1","42","7","server-1",1773226800000,1773226800000,1773230400000,1773230400000]

-- stopShift
update shifts
set status = 'completed', ended_at = +?, end_reason = +?
where id = +?
  and (case when status = 'active' then last_seen_at end) >= +?
  and application_id = +? and environment = +? and started_at <= +?
returning *;
-- values: [1773230400000,"manual","shift-1",1773230100000,"application-1","test",1773230400000]

-- timeOutShift
update "shifts" set "status" = 'completed', "ended_at" = "last_heartbeat_at", "end_reason" = +? where "id" = +? and (case when status = 'active' then last_seen_at end) < +? returning *;
-- values: ["heartbeat_timeout","shift-1",1773230100000]

-- timeOutShifts
select "id" from "shifts" where (status = 'active' and last_seen_at < +?) limit +?;
-- values: [1773230100000,500]
