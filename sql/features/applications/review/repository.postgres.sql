-- findSubmission
select "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment" from "submissions" where "id" = $1;
-- values: ["submission-1"]

-- updateSubmissionIf
update "submissions" set "status" = $1, "accepted_at" = $2, "updated_at" = $3 where "id" = $4 and "status" in ($5, $6) returning "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment";
-- values: ["accepted",1773230400000,1773230400000,"submission-1","submitted","under_review"]

-- setStaffProfile
update "submissions" set "staff_profile_id" = $1 where "id" = $2;
-- values: ["staff-1","submission-1"]
