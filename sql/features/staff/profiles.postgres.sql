-- findWorkspaceWithChatStaff
select w.*, s.id as staff_id,
       s.workspace_id as staff_workspace_id,
       s.display_name as staff_display_name,
       s.game_user_id as staff_game_user_id,
       s.game_username as staff_game_username,
       s.chat_user_id as staff_chat_user_id,
       s.rank as staff_rank,
       s.status as staff_status,
       s.weekly_required_minutes as staff_weekly_required_minutes,
       d.id as staff_department_id,
       d.name as staff_department_name,
       d.weekly_required_minutes as staff_department_weekly_required_minutes
from workspaces as w
left join staff as s on s.id = (
  select c.id from staff as c where c.workspace_id = w.id and c.chat_user_id = $1
  order by c.created_at, c.id
  limit 1)
left join departments as d on d.id = s.department_id
where w.id = $2;
-- values: ["chat-user-1","workspace-1"]
select w.*, s.id as staff_id,
       s.workspace_id as staff_workspace_id,
       s.display_name as staff_display_name,
       s.game_user_id as staff_game_user_id,
       s.game_username as staff_game_username,
       s.chat_user_id as staff_chat_user_id,
       s.rank as staff_rank,
       s.status as staff_status,
       s.weekly_required_minutes as staff_weekly_required_minutes,
       d.id as staff_department_id,
       d.name as staff_department_name,
       d.weekly_required_minutes as staff_department_weekly_required_minutes, exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = $1 and k.id = $2 and k.environment = $3 and k.scopes = $4
        and a.id = $5 and a.name = $6 and a.workspace_id = $7
        and a.features = $8 and a.allowed_universe_ids = $9
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > $10) and a.approved = 1) as holds
from workspaces as w
left join staff as s on s.id = (
  select c.id from staff as c where c.workspace_id = w.id and c.chat_user_id = $11
  order by c.created_at, c.id
  limit 1)
left join departments as d on d.id = s.department_id
where w.id = $12;
-- values: ["key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"chat-user-1","workspace-1"]

-- findStaffByGameUser
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
where s.workspace_id = $1 and s.game_user_id = $2;
-- values: ["workspace-1","1001"]

-- findStaffProfiles
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
where s.id = any(array(select json_array_elements_text($1::json)));
-- values: ["[\"staff-1\",\"staff-2\"]"]

-- findStaffProfile
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
where s.id = $1 and s.workspace_id = $2;
-- values: ["staff-1","workspace-1"]
