-- findRanksOfWorkspaces
select "workspace_id", "name", "assignable" from "ranks" where "workspace_id" in ($1);
-- values: ["workspace-1"]

-- replaceRanks
delete from "ranks" where "workspace_id" = $1;
-- values: ["workspace-1"]
insert into "ranks" ("workspace_id", "name", "role_id", "rank_order", "assignable") values ($1, $2, $3, $4, $5);
-- values: ["workspace-1","Moderator","11",10,1]

-- upsertRobloxSettings (withSecrets)
insert into "roblox_settings" ("workspace_id", "group_id", "api_key", "webhook_secret", "updated_at") values ($1, $2, $3, $4, $5) on conflict ("workspace_id") do update set "group_id" = $6, "updated_at" = $7, "api_key" = $8, "webhook_secret" = $9;
-- values: ["workspace-1","123","key","secret",1773230400000,"123",1773230400000,"key","secret"]

-- upsertRobloxSettings (keepingSecrets)
insert into "roblox_settings" ("workspace_id", "group_id", "api_key", "webhook_secret", "updated_at") values ($1, $2, $3, $4, $5) on conflict ("workspace_id") do update set "group_id" = $6, "updated_at" = $7;
-- values: ["workspace-1","123",null,null,1773230400000,"123",1773230400000]
