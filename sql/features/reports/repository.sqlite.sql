-- earliestLiveSeen
select min("last_seen_at") as "seen" from "shifts" where "workspace_id" = ? and "environment" = ? and "status" = 'active' and "last_seen_at" >= ?;
-- values: ["workspace-1","test",1773230100000]

-- listRankedStaffIds
select "id" from "staff" where "workspace_id" = ? and "status" in (?) and "department_id" = ?;
-- values: ["workspace-1","active","department-1"]

-- findApprovedNotices
-- named statement findApprovedNotices (named.sqlite.sql)
-- values: ["[\"staff-1\"]",1772625600000,1773230400000]
