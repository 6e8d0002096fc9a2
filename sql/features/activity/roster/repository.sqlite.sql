-- findLiveShifts
select id, staff_id, started_at
from shifts
where staff_id in (select value from json_each(+?))
  and workspace_id = +? and environment = +? and (status = 'active' and last_seen_at >= +?);
-- values: ["[\"staff-1\",\"staff-2\"]","workspace-1","test",1773230100000]

-- listRecentShifts
select "id", "started_at", "ended_at", "end_reason" from "shifts" where "staff_id" = +? and "environment" = +? and "workspace_id" = +? and "status" = 'completed' order by "started_at" desc, "id" desc limit +?;
-- values: ["staff-1","test","workspace-1",20]

-- listRecentNotices
select "id", "staff_id", "environment", "starts_at", "ends_at", "status", "created_at", "decided_at" from "inactivity_notices" where "staff_id" = +? and "environment" = +? order by "starts_at" desc, "id" desc limit +?;
-- values: ["staff-1","live",10]
