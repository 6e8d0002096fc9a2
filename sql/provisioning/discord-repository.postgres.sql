-- findDiscordConnections
select "d"."workspace_id", "d"."application_id", "d"."public_key", "w"."chat_guild_id" as "guild_id" from "discord_connections" as "d" inner join "workspaces" as "w" on "w"."id" = "d"."workspace_id" where "d"."application_id" in ($1) order by "d"."workspace_id";
-- values: ["123456789012345678"]

-- upsertDiscordConnection
insert into "discord_connections" ("workspace_id", "application_id", "public_key", "environment", "updated_at") values ($1, $2, $3, $4, $5) on conflict ("workspace_id") do update set "application_id" = $6, "public_key" = $7, "environment" = $8, "updated_at" = $9;
-- values: ["workspace-1","application-1","abababababababababababababababababababababababababababababababab","live",1773230400000,"application-1","abababababababababababababababababababababababababababababababab","live",1773230400000]

-- deleteDiscordConnections
delete from "discord_connections" where "workspace_id" in ($1);
-- values: ["workspace-1"]
