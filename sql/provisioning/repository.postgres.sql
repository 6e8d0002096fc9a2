-- findWorkspacesById
select "id", "slug", "timezone" from "workspaces" where "id" in ($1);
-- values: ["workspace-1"]

-- findWorkspacesBySlug
select "id", "slug" from "workspaces" where "slug" in ($1);
-- values: ["workspace"]

-- findOwners
select "id", "workspace_id" from "departments" where "id" in ($1, $2);
-- values: ["department-1","department-2"]

-- findStaffById
select "id", "workspace_id", "game_user_id" from "staff" where "id" in ($1);
-- values: ["staff-1"]

-- findStaffByGameUsers
select "id", "workspace_id", "game_user_id" from "staff" where "workspace_id" = $1 and "game_user_id" in ($2, $3);
-- values: ["workspace-1","1001","1002"]

-- findMembersByChatUsers
select "user_id", "chat_user_id" from "members" where "workspace_id" = $1 and "chat_user_id" in ($2, $3);
-- values: ["workspace-1","5551","5552"]

-- findKeysById
select "id", "application_id", "environment", "key_hash" from "api_keys" where "id" in ($1);
-- values: ["key-1"]

-- findKeysByHash
select "id", "key_hash" from "api_keys" where "key_hash" in ($1);
-- values: ["key-hash"]

-- findPendingSubmissions
select "id", "form_id", "game_user_id" from "submissions" where "form_id" in ($1) and "environment" = $2 and "status" in ($3, $4);
-- values: ["form-1","live","submitted","under_review"]

-- findFormQuestions
select "id", "questions" from "application_forms" where "id" in ($1);
-- values: ["form-1"]

-- findEndpointWorkspaces
select "id", "workspace_id" from "webhook_endpoints" where "id" in ($1);
-- values: ["endpoint-1"]

-- releaseWorkspaceSlug
update "workspaces" set "slug" = $1 where "id" = $2;
-- values: ["~workspace-1","workspace-1"]

-- releaseGameUserId
update "staff" set "game_user_id" = $1 where "id" = $2;
-- values: ["~staff-1","staff-1"]

-- upsertBatch (workspaces, overwritten when something differs)
insert into "workspaces" ("id", "name", "slug", "timezone", "settings", "create_staff_profile_on_accept", "weekly_required_minutes", "chat_guild_id", "chat_status", "chat_connected_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict ("id") do update set "name" = "excluded"."name", "slug" = "excluded"."slug", "timezone" = "excluded"."timezone", "settings" = "excluded"."settings", "create_staff_profile_on_accept" = "excluded"."create_staff_profile_on_accept", "weekly_required_minutes" = "excluded"."weekly_required_minutes", "max_notice_days" = "excluded"."max_notice_days", "chat_guild_id" = "excluded"."chat_guild_id", "chat_status" = "excluded"."chat_status", "chat_connected_at" = "excluded"."chat_connected_at", "updated_at" = "excluded"."updated_at" where ("workspaces"."name" is distinct from "excluded"."name" or "workspaces"."slug" is distinct from "excluded"."slug" or "workspaces"."timezone" is distinct from "excluded"."timezone" or "workspaces"."settings" is distinct from "excluded"."settings" or "workspaces"."create_staff_profile_on_accept" is distinct from "excluded"."create_staff_profile_on_accept" or "workspaces"."weekly_required_minutes" is distinct from "excluded"."weekly_required_minutes" or "workspaces"."max_notice_days" is distinct from "excluded"."max_notice_days" or "workspaces"."chat_guild_id" is distinct from "excluded"."chat_guild_id" or "workspaces"."chat_status" is distinct from "excluded"."chat_status" or "workspaces"."chat_connected_at" is distinct from "excluded"."chat_connected_at");
-- values: ["workspace-1","Workspace","workspace","UTC","{}",0,null,null,null,null,1773230400000,1773230400000]

-- upsertBatch (departments, overwritten)
insert into "departments" ("id", "workspace_id", "name", "weekly_required_minutes") values ($1, $2, $3, $4) on conflict ("id") do update set "name" = "excluded"."name", "weekly_required_minutes" = "excluded"."weekly_required_minutes";
-- values: ["department-1","workspace-1","Moderation",120]

-- upsertBatch (submissions, inserted when absent)
insert into "submissions" ("id", "workspace_id", "status", "score", "reviewer_notes", "applicant", "answers", "created_at", "reviewed_at", "accepted_at", "rejected_at", "staff_profile_id", "updated_at", "form_id", "environment", "game_user_id") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) on conflict ("id") do nothing;
-- values: ["submission-1","workspace-1","accepted",null,null,"{\"gameUserId\":\"2001\",\"gameUsername\":null,\"displayName\":null,\"chatUserId\":null}","[]",1773230400000,1773230400000,1773230400000,null,null,1773230400000,"form-1","live","2001"]

-- insertKeyUnlessExists
insert into "api_keys" ("id", "application_id", "environment", "key_hash", "scopes", "revoked", "expires_at", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict ("id") do nothing returning "id";
-- values: ["key-1","application-1","test","key-hash","[\"activity:write\"]",0,null,1773230400000]

-- updateKey (scopes only)
update "api_keys" set "scopes" = $1 where "id" = $2;
-- values: ["[\"activity:read\"]","key-1"]

-- updateKey (scopes, revoked and expiry)
update "api_keys" set "scopes" = $1, "revoked" = $2, "expires_at" = $3 where "id" = $4;
-- values: ["[\"activity:read\"]",1,1773230400000,"key-1"]

-- insertShiftsUnlessExist
insert into "shifts" ("id", "workspace_id", "application_id", "environment", "staff_id", "universe_id", "place_id", "server_id", "status", "started_at", "last_heartbeat_at", "last_seen_at", "ended_at", "end_reason", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) on conflict ("id") do nothing returning "workspace_id", "environment", "staff_id", "started_at", "ended_at", "last_heartbeat_at";
-- values: ["shift-1","workspace-1","application-1","test","staff-1","42","7","server-1","completed",1773226800000,1773226800000,1773230400000,1773230400000,"manual",1773230400000]

-- insertEndpoint
insert into "webhook_endpoints" ("id", "workspace_id", "url", "events", "enabled", "secret", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8);
-- values: ["endpoint-1","workspace-1","https://example.com/hooks","[\"*\"]",1,"whsec_c2FtcGxlLXNlY3JldC1zYW1wbGUtc2VjcmV0",1773230400000,1773230400000]

-- updateEndpoint
update "webhook_endpoints" set "url" = $1, "events" = $2, "enabled" = $3, "updated_at" = $4 where "id" = $5;
-- values: ["https://example.com/hooks","[\"*\"]",1,1773230400000,"endpoint-1"]
