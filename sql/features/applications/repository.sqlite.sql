-- findSubmission
select "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment" from "submissions" where "id" = +?;
-- values: ["submission-1"]

-- updateSubmissionIf
update "submissions" set "status" = +?, "accepted_at" = +?, "updated_at" = +? where "id" = +? and "status" in (+?, +?) returning "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment";
-- values: ["accepted",1773230400000,1773230400000,"submission-1","submitted","under_review"]

-- setStaffProfile
update "submissions" set "staff_profile_id" = +? where "id" = +?;
-- values: ["staff-1","submission-1"]

-- findStaffIdByGameUser
select "id" from "staff" where "workspace_id" = +? and "game_user_id" = +?;
-- values: ["workspace-1","1001"]

-- insertStaffIfAbsent
insert into "staff" ("id", "workspace_id", "display_name", "game_user_id", "game_username", "chat_user_id", "department_id", "rank", "status", "weekly_required_minutes", "created_at") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?) on conflict ("workspace_id", "game_user_id") do nothing;
-- values: ["staff-1","workspace-1","Alice","1001","alice",null,null,null,"active",null,1773230400000]
