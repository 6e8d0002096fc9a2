-- findSubmission
select "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment" from "submissions" where "id" = $1;
-- values: ["submission-1"]

-- updateSubmissionIf
update "submissions" set "status" = $1, "accepted_at" = $2, "updated_at" = $3 where "id" = $4 and "status" in ($5, $6) returning "id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "environment";
-- values: ["accepted",1773230400000,1773230400000,"submission-1","submitted","under_review"]

-- setStaffProfile
update "submissions" set "staff_profile_id" = $1 where "id" = $2;
-- values: ["staff-1","submission-1"]

-- findStaffIdByGameUser
select "id" from "staff" where "workspace_id" = $1 and "game_user_id" = $2;
-- values: ["workspace-1","1001"]

-- insertStaffIfAbsent
insert into "staff" ("id", "workspace_id", "display_name", "game_user_id", "game_username", "chat_user_id", "department_id", "rank", "status", "weekly_required_minutes", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) on conflict ("workspace_id", "game_user_id") do nothing;
-- values: ["staff-1","workspace-1","Alice","1001","alice",null,null,null,"active",null,1773230400000]
