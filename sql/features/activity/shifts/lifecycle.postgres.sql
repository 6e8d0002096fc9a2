-- startShift
insert into shifts
  (id, workspace_id, application_id, environment, staff_id, universe_id, place_id, server_id, status,
   started_at, last_heartbeat_at, last_seen_at, ended_at, end_reason, created_at)
values ($1, $2, $3, $4, $5, $6,
  $7, $8, 'active', $9, $10, $11, null, null,
  $12)
on conflict (application_id, environment, staff_id) where status = 'active' do nothing
returning id;
-- values: ["shift-1","workspace-1","application-1","test","staff-1","42","7","server-1",1773226800000,1773226800000,1773230400000,1773230400000]

-- stopShift
update shifts
set status = 'completed', ended_at = $1, end_reason = $2
where id = $3
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
returning *;
-- values: [1773230400000,"manual","shift-1",1773230100000,"application-1","test",1773230400000]

-- timeOutShift
update "shifts" set "status" = 'completed', "ended_at" = "last_heartbeat_at", "end_reason" = $1 where "id" = $2 and (case when status = 'active' then last_seen_at end) < $3 returning *;
-- values: ["heartbeat_timeout","shift-1",1773230100000]

-- timeOutShifts
select "id" from "shifts" where (status = 'active' and last_seen_at < $1) limit $2;
-- values: [1773230100000,500]
