-- upsertWorkspaces
insert into "workspaces" ("id", "name", "slug", "timezone", "settings", "create_staff_profile_on_accept", "weekly_required_minutes", "chat_guild_id", "chat_status", "chat_connected_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict ("id") do update set "name" = "excluded"."name", "slug" = "excluded"."slug", "timezone" = "excluded"."timezone", "settings" = "excluded"."settings", "create_staff_profile_on_accept" = "excluded"."create_staff_profile_on_accept", "weekly_required_minutes" = "excluded"."weekly_required_minutes", "max_notice_days" = "excluded"."max_notice_days", "chat_guild_id" = "excluded"."chat_guild_id", "chat_status" = "excluded"."chat_status", "chat_connected_at" = "excluded"."chat_connected_at", "updated_at" = "excluded"."updated_at" where ("workspaces"."name" is distinct from "excluded"."name" or "workspaces"."slug" is distinct from "excluded"."slug" or "workspaces"."timezone" is distinct from "excluded"."timezone" or "workspaces"."settings" is distinct from "excluded"."settings" or "workspaces"."create_staff_profile_on_accept" is distinct from "excluded"."create_staff_profile_on_accept" or "workspaces"."weekly_required_minutes" is distinct from "excluded"."weekly_required_minutes" or "workspaces"."max_notice_days" is distinct from "excluded"."max_notice_days" or "workspaces"."chat_guild_id" is distinct from "excluded"."chat_guild_id" or "workspaces"."chat_status" is distinct from "excluded"."chat_status" or "workspaces"."chat_connected_at" is distinct from "excluded"."chat_connected_at");
-- values: ["workspace-1","Workspace","workspace","UTC","{}",0,null,null,null,null,1773230400000,1773230400000]

-- releaseWorkspaceSlug
update "workspaces" set "slug" = $1 where "id" = $2;
-- values: ["~workspace-1","workspace-1"]

-- lockWorkspacesForTotals
update workspaces set activity_version = activity_version + 1
where id = any(array(select json_array_elements_text($1::json)))
returning id, timezone, activity_version;
-- values: ["[\"workspace-1\"]"]
