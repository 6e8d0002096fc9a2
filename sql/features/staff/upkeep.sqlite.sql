-- upsertStaff
insert into "staff" ("id", "workspace_id", "display_name", "game_user_id", "game_username", "chat_user_id", "department_id", "rank", "status", "weekly_required_minutes", "created_at") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?) on conflict ("id") do update set "display_name" = "excluded"."display_name", "game_user_id" = "excluded"."game_user_id", "game_username" = "excluded"."game_username", "chat_user_id" = "excluded"."chat_user_id", "department_id" = "excluded"."department_id", "rank" = "excluded"."rank", "status" = "excluded"."status", "weekly_required_minutes" = "excluded"."weekly_required_minutes" where ("staff"."display_name" is distinct from "excluded"."display_name" or "staff"."game_user_id" is distinct from "excluded"."game_user_id" or "staff"."game_username" is distinct from "excluded"."game_username" or "staff"."chat_user_id" is distinct from "excluded"."chat_user_id" or "staff"."department_id" is distinct from "excluded"."department_id" or "staff"."rank" is distinct from "excluded"."rank" or "staff"."status" is distinct from "excluded"."status" or "staff"."weekly_required_minutes" is distinct from "excluded"."weekly_required_minutes");
-- values: ["staff-1","workspace-1","Alice","1001","alice",null,null,null,"active",null,1773230400000]

-- releaseGameUserId
update "staff" set "game_user_id" = +? where "id" = +?;
-- values: ["~staff-1","staff-1"]

-- insertStaffIfAbsent
insert into "staff" ("id", "workspace_id", "display_name", "game_user_id", "game_username", "chat_user_id", "department_id", "rank", "status", "weekly_required_minutes", "created_at") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?) on conflict ("workspace_id", "game_user_id") do nothing;
-- values: ["staff-1","workspace-1","Alice","1001","alice",null,null,null,"active",null,1773230400000]

-- ensureStaffProfile
select s.id,
       s.workspace_id,
       s.display_name,
       s.game_user_id,
       s.game_username,
       s.chat_user_id,
       s.rank,
       s.status,
       s.weekly_required_minutes,
       d.id as department_id,
       d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = +? and s.game_user_id = +?;
-- values: ["workspace-1","1001"]
insert into "staff" ("id", "workspace_id", "display_name", "game_user_id", "game_username", "chat_user_id", "department_id", "rank", "status", "weekly_required_minutes", "created_at") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?) on conflict ("workspace_id", "game_user_id") do nothing;
-- values: ["<uuid>","workspace-1","Alice","1001","alice",null,null,null,"active",null,1773230400000]
select s.id,
       s.workspace_id,
       s.display_name,
       s.game_user_id,
       s.game_username,
       s.chat_user_id,
       s.rank,
       s.status,
       s.weekly_required_minutes,
       d.id as department_id,
       d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = +? and s.game_user_id = +?;
-- values: ["workspace-1","1001"]

-- setStaffRank
update "staff" set "rank" = +? where "id" = +?;
-- values: ["Senior Moderator","staff-1"]

-- findStaffIdentities (everywhere)
select "id", "display_name", "game_username", "chat_user_id" from "staff" where "game_user_id" = +? order by "id";
-- values: ["1001"]

-- findStaffIdentities (inWorkspace)
select "id", "display_name", "game_username", "chat_user_id" from "staff" where "game_user_id" = +? and "workspace_id" = +? order by "id";
-- values: ["1001","workspace-1"]

-- anonymiseStaff
update "staff" set "display_name" = +?, "game_username" = +?, "game_user_id" = +?, "chat_user_id" = +? where "id" = +?;
-- values: ["erased-staff-1","erased-staff-1","erased-staff-1",null,"staff-1"]
