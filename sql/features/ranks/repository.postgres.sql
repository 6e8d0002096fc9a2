-- findStaffLocking
select "s"."id", "s"."workspace_id", "s"."display_name", "s"."game_user_id", "s"."game_username", "s"."chat_user_id", "s"."department_id", "s"."rank", "s"."status" from "staff" as "s" where "s"."id" = $1 for no key update of s;
-- values: ["staff-1"]

-- findStaffWorkspace
select "workspace_id" from "staff" where "id" = $1;
-- values: ["staff-1"]

-- findRanks
select "name", "role_id", "rank_order", "assignable" from "ranks" where "workspace_id" = $1;
-- values: ["workspace-1"]

-- findRanksInOrder
select "workspace_id", "name", "rank_order", "assignable" from "ranks" where "workspace_id" in ($1) order by "workspace_id", "rank_order";
-- values: ["workspace-1"]

-- findSyncConfigured
select "workspace_id" from "roblox_settings" where "workspace_id" = $1 and "api_key" is not null;
-- values: ["workspace-1"]

-- insertRankChange
insert into "rank_changes" ("id", "workspace_id", "staff_id", "from_rank", "to_rank", "from_role_id", "to_role_id", "reason", "changed_by", "created_at", "sync_status", "attempts", "last_error", "applied_at", "next_attempt_at", "expires_at", "claimed_until", "claimed_by", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19);
-- values: ["change-1","workspace-1","staff-1","Moderator","Senior Moderator","11","12",null,"user-1",1773230400000,"pending",0,null,null,1773230400000,1773316800000,null,null,1773230400000]

-- findRankChanges
select * from "rank_changes" where "staff_id" = $1 order by "id" desc limit $2;
-- values: ["staff-1",50]

-- findRankChange
select * from "rank_changes" where "id" = $1;
-- values: ["change-1"]

-- findEntryRank
select "f"."entry_rank" from "submissions" as "s" inner join "application_forms" as "f" on "f"."id" = "s"."form_id" where "s"."id" = $1;
-- values: ["submission-1"]
