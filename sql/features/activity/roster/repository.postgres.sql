-- findLiveShifts
select id, staff_id, started_at
from shifts
where staff_id = any(array(select json_array_elements_text($1::json)))
  and workspace_id = $2 and environment = $3 and (status = 'active' and last_seen_at >= $4);
-- values: ["[\"staff-1\",\"staff-2\"]","workspace-1","test",1773230100000]

-- listRecentShifts
select "id", "started_at", "ended_at", "end_reason" from "shifts" where "staff_id" = $1 and "environment" = $2 and "workspace_id" = $3 and "status" = 'completed' order by "started_at" desc, "id" desc limit $4;
-- values: ["staff-1","test","workspace-1",20]

-- listRecentNotices
select "id", "staff_id", "environment", "starts_at", "ends_at", "status", "created_at", "decided_at" from "inactivity_notices" where "staff_id" = $1 and "environment" = $2 order by "starts_at" desc, "id" desc limit $3;
-- values: ["staff-1","live",10]
