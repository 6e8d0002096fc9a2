-- earliestLiveSeen
select min("last_seen_at") as "seen" from "shifts" where "workspace_id" = +? and "environment" = +? and (status = 'active' and last_seen_at >= +?);
-- values: ["workspace-1","test",1773230100000]

-- listRankedStaffIds
select "id" from "staff" where "workspace_id" = +? and "status" in (+?) and "department_id" = +?;
-- values: ["workspace-1","active","department-1"]

-- findApprovedNotices
select id, staff_id, starts_at, ends_at, reason
from inactivity_notices
where staff_id in (select value from json_each(+?))
  and environment = +? and status = 'approved' and ends_at > +? and starts_at < +?;
-- values: ["[\"staff-1\"]","live",1772625600000,1773230400000]
