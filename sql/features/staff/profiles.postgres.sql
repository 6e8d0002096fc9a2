-- findStaffByChatUser
select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = $1 and s.chat_user_id = $2
order by s.created_at, s.id
limit 1;
-- values: ["workspace-1","chat-user-1"]

-- findStaffByGameUser
select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = $1 and s.game_user_id = $2;
-- values: ["workspace-1","1001"]

-- findStaffProfiles
select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id
where s.id = any(array(select json_array_elements_text($1::json)));
-- values: ["[\"staff-1\",\"staff-2\"]"]
