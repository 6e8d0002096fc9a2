-- findSubmission
select "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment" from "submissions" where "id" = +?;
-- values: ["submission-1"]

-- updateSubmissionIf
update "submissions" set "status" = +?, "accepted_at" = +?, "updated_at" = +? where "id" = +? and "status" in (+?, +?) returning "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment";
-- values: ["accepted",1773230400000,1773230400000,"submission-1","submitted","under_review"]

-- setStaffProfile
update "submissions" set "staff_profile_id" = +? where "id" = +?;
-- values: ["staff-1","submission-1"]
