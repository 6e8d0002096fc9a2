-- findApplicationWorkspaces
select d.workspace_id, d.public_key, d.environment, w.chat_guild_id as guild_id, w.chat_status, w.timezone
from discord_connections as d
join workspaces as w on w.id = d.workspace_id
where d.application_id = $1
order by d.workspace_id;
-- values: ["123456789012345678"]

-- findChatMember
select "user_id", "permissions" from "members" where "workspace_id" = $1 and "chat_user_id" = $2 order by "user_id" limit $3;
-- values: ["workspace-1","5551",1]

-- findWorkspaceConnection
select "d"."application_id", "w"."chat_guild_id" as "guild_id" from "discord_connections" as "d" inner join "workspaces" as "w" on "w"."id" = "d"."workspace_id" where "d"."workspace_id" = $1;
-- values: ["workspace-1"]
