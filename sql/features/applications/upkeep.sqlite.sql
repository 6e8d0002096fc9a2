-- insertSubmissionsUnlessExist
insert into "submissions" ("id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "answers", "created_at", "reviewed_at", "accepted_at", "rejected_at", "staff_profile_id", "updated_at", "form_id", "environment", "game_user_id") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?) on conflict ("id") do nothing;
-- values: ["submission-1","workspace-1","accepted",null,null,"{\"gameUserId\":\"2001\",\"gameUsername\":null,\"displayName\":null,\"chatUserId\":null}","[]",1773230400000,1773230400000,1773230400000,null,null,1773230400000,"form-1","live","2001"]

-- findSubmissionCandidates (everywhere)
select "id", "game_user_id", "applicant", "answers" from "submissions" where ("game_user_id" = +? or "applicant" like +?) order by "id";
-- values: ["1001","%\"gameUserId\":\"1001\"%"]

-- findSubmissionCandidates (inWorkspace)
select "id", "game_user_id", "applicant", "answers" from "submissions" where ("game_user_id" = +? or "applicant" like +?) and "workspace_id" = +? order by "id";
-- values: ["1001","%\"gameUserId\":\"1001\"%","workspace-1"]

-- eraseSubmission
update "submissions" set "applicant" = +?, "answers" = +?, "reviewer_notes" = +?, "game_user_id" = +? where "id" = +?;
-- values: ["{\"gameUserId\":null}","{}",null,null,"submission-1"]
