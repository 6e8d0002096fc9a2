-- listRosterPage (first)
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
       d.weekly_required_minutes as department_weekly_required_minutes,
       (select t.worked_ms
          from activity_totals as t
          where t.workspace_id = s.workspace_id and t.environment = +? and t.grain = 'week'
            and t.bucket_start = +? and t.staff_id = s.id) as week_worked_ms,
       (select nullif(json_group_array(json_array(a.id, a.status, a.started_at, a.last_heartbeat_at, a.last_seen_at)), '[]')
          from shifts as a
          where a.staff_id = s.id and a.environment = +? and a.ended_at is null) as active_shifts,
       (select nullif(json_group_array(json_array(n.id, n.starts_at, n.ends_at)), '[]')
          from inactivity_notices as n
          where n.staff_id = s.id and n.environment = +? and n.status = 'approved'
            and n.ends_at > +? and n.starts_at < +?) as notices
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = +? and s.status in (+?)
order by s.display_name, s.id
limit +?;
-- values: ["test",1773014400000,"test","test",1773014400000,1773619200000,"workspace-1","active",51]

-- listRosterPage (filtered)
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
       d.weekly_required_minutes as department_weekly_required_minutes,
       (select t.worked_ms
          from activity_totals as t
          where t.workspace_id = s.workspace_id and t.environment = +? and t.grain = 'week'
            and t.bucket_start = +? and t.staff_id = s.id) as week_worked_ms,
       (select nullif(json_group_array(json_array(a.id, a.status, a.started_at, a.last_heartbeat_at, a.last_seen_at)), '[]')
          from shifts as a
          where a.staff_id = s.id and a.environment = +? and a.ended_at is null) as active_shifts,
       (select nullif(json_group_array(json_array(n.id, n.starts_at, n.ends_at)), '[]')
          from inactivity_notices as n
          where n.staff_id = s.id and n.environment = +? and n.status = 'approved'
            and n.ends_at > +? and n.starts_at < +?) as notices
from staff as s
left join departments as d on d.id = s.department_id
where s.workspace_id = +? and s.status in (+?, +?) and s.department_id = +? and s.rank = +? and (s.display_name > +? or (s.display_name = +? and s.id > +?))
order by s.display_name, s.id
limit +?;
-- values: ["test",1773014400000,"test","test",1773014400000,1773619200000,"workspace-1","active","inactive","department-1","Moderator","Alice","Alice","staff-1",51]

-- listRecentShifts
select "id", "started_at", "ended_at", "end_reason" from "shifts" where "staff_id" = +? and "environment" = +? and "workspace_id" = +? and "status" = 'completed' order by "started_at" desc, "id" desc limit +?;
-- values: ["staff-1","test","workspace-1",20]

-- listRecentNotices
select "id", "staff_id", "environment", "starts_at", "ends_at", "status", "created_at", "decided_at" from "inactivity_notices" where "staff_id" = +? and "environment" = +? order by "starts_at" desc, "id" desc limit +?;
-- values: ["staff-1","live",10]
