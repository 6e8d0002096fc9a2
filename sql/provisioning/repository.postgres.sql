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

-- upsertDepartments
insert into "departments" ("id", "workspace_id", "name", "weekly_required_minutes") values ($1, $2, $3, $4) on conflict ("id") do update set "name" = "excluded"."name", "weekly_required_minutes" = "excluded"."weekly_required_minutes";
-- values: ["department-1","workspace-1","Moderation",120]

-- upsertMembers
insert into "members" ("workspace_id", "user_id", "permissions", "chat_user_id") values ($1, $2, $3, $4) on conflict ("workspace_id", "user_id") do update set "permissions" = "excluded"."permissions", "chat_user_id" = "excluded"."chat_user_id";
-- values: ["workspace-1","user-1","[\"applications.read\"]",null]

-- upsertApplications
insert into "applications" ("id", "workspace_id", "name", "approved", "allowed_universe_ids", "features") values ($1, $2, $3, $4, $5, $6) on conflict ("id") do update set "name" = "excluded"."name", "approved" = "excluded"."approved", "allowed_universe_ids" = "excluded"."allowed_universe_ids", "features" = "excluded"."features";
-- values: ["application-1","workspace-1","Game server",1,"[]","[]"]

-- upsertForms
insert into "application_forms" ("id", "workspace_id", "name", "slug", "status", "description", "department_id", "cooldown_days", "questions", "entry_rank", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) on conflict ("id") do update set "name" = "excluded"."name", "slug" = "excluded"."slug", "status" = "excluded"."status", "description" = "excluded"."description", "department_id" = "excluded"."department_id", "cooldown_days" = "excluded"."cooldown_days", "questions" = "excluded"."questions", "entry_rank" = "excluded"."entry_rank", "updated_at" = "excluded"."updated_at" where ("application_forms"."name" is distinct from "excluded"."name" or "application_forms"."slug" is distinct from "excluded"."slug" or "application_forms"."status" is distinct from "excluded"."status" or "application_forms"."description" is distinct from "excluded"."description" or "application_forms"."department_id" is distinct from "excluded"."department_id" or "application_forms"."cooldown_days" is distinct from "excluded"."cooldown_days" or "application_forms"."questions" is distinct from "excluded"."questions" or "application_forms"."entry_rank" is distinct from "excluded"."entry_rank");
-- values: ["form-1","workspace-1","Moderator","moderator","open",null,null,0,"[]",null,1773230400000,1773230400000]

-- insertEndpoint
insert into "webhook_endpoints" ("id", "workspace_id", "url", "events", "enabled", "secret", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8);
-- values: ["endpoint-1","workspace-1","https://example.com/hooks","[\"*\"]",1,"whsec_c2FtcGxlLXNlY3JldC1zYW1wbGUtc2VjcmV0",1773230400000,1773230400000]

-- updateEndpoint
update "webhook_endpoints" set "url" = $1, "events" = $2, "enabled" = $3, "updated_at" = $4 where "id" = $5;
-- values: ["https://example.com/hooks","[\"*\"]",1,1773230400000,"endpoint-1"]
