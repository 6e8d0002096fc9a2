-- findRanksOfWorkspaces
select "workspace_id", "name", "assignable" from "ranks" where "workspace_id" in (+?);
-- values: ["workspace-1"]

-- replaceRanks
delete from "ranks" where "workspace_id" = +?;
-- values: ["workspace-1"]
insert into "ranks" ("workspace_id", "name", "role_id", "rank_order", "assignable") values (+?, +?, +?, +?, +?);
-- values: ["workspace-1","Moderator","11",10,1]

-- upsertRobloxSettings (withSecrets)
insert into "roblox_settings" ("workspace_id", "group_id", "api_key", "webhook_secret", "updated_at") values (+?, +?, +?, +?, +?) on conflict ("workspace_id") do update set "group_id" = +?, "updated_at" = +?, "api_key" = +?, "webhook_secret" = +?;
-- values: ["workspace-1","123","key","secret",1773230400000,"123",1773230400000,"key","secret"]

-- upsertRobloxSettings (keepingSecrets)
insert into "roblox_settings" ("workspace_id", "group_id", "api_key", "webhook_secret", "updated_at") values (+?, +?, +?, +?, +?) on conflict ("workspace_id") do update set "group_id" = +?, "updated_at" = +?;
-- values: ["workspace-1","123",null,null,1773230400000,"123",1773230400000]
