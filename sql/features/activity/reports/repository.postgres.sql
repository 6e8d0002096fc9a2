-- earliestLiveSeen
select min("last_seen_at") as "seen" from "shifts" where "workspace_id" = $1 and "environment" = $2 and (status = 'active' and last_seen_at >= $3);
-- values: ["workspace-1","test",1773230100000]

-- listRankedStaffIds
select "id" from "staff" where "workspace_id" = $1 and "status" in ($2) and "department_id" = $3;
-- values: ["workspace-1","active","department-1"]

-- findApprovedNotices
select id, staff_id, starts_at, ends_at, reason
from inactivity_notices
where staff_id = any(array(select json_array_elements_text($1::json)))
  and environment = $2 and status = 'approved' and ends_at > $3 and starts_at < $4;
-- values: ["[\"staff-1\"]","live",1772625600000,1773230400000]
