-- findStaffName
select "display_name" from "staff" where "workspace_id" = +? and "id" = +?;
-- values: ["workspace-1","staff-1"]

-- findApplicant
select "applicant" from "submissions" where "workspace_id" = +? and "id" = +?;
-- values: ["workspace-1","submission-1"]
