-- findOwnedShift
select * from "shifts" where "id" = $1 and "application_id" = $2 and "environment" = $3;
-- values: ["shift-1","application-1","test"]

-- findOwnedShifts
select * from "shifts" where "id" in ($1, $2) and "application_id" = $3 and "environment" = $4;
-- values: ["shift-1","shift-2","application-1","test"]

-- findActiveShift
select * from shifts
where application_id = $1 and environment = $2 and staff_id = $3 and status = 'active';
-- values: ["application-1","test","staff-1"]

-- findActiveShiftsOfServer
select * from "shifts" where "application_id" = $1 and "environment" = $2 and "status" = 'active' and "server_id" = $3;
-- values: ["application-1","test","server-1"]

-- lockShifts
select id from shifts where id = any(array(select json_array_elements_text($1::json))) order by id
for no key update;
-- values: ["[\"shift-1\",\"shift-2\"]"]

-- recordHeartbeat
update shifts
set last_heartbeat_at = greatest(last_heartbeat_at, $1), last_seen_at = $2
where id = $3
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
  and server_id = coalesce($8, server_id)
returning id, last_heartbeat_at;
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,"application-1","test",1773230400000,"server-1"]

-- recordHeartbeats
update shifts
set last_heartbeat_at = greatest(last_heartbeat_at, $1), last_seen_at = $2
where id = any(array(select id from shifts where id = any(array(select json_array_elements_text($3::json))) order by id
for no key update))
  and (case when status = 'active' then last_seen_at end) >= $4
  and application_id = $5 and environment = $6 and started_at <= $7
  and server_id = $8
returning id, last_heartbeat_at;
-- values: [1773230400000,1773230400000,"[\"shift-1\",\"shift-2\"]",1773230100000,"application-1","test",1773230400000,"server-1"]

-- findVisibleShift
select "sh".*, "st"."display_name" as "staff_display_name", "st"."game_user_id" as "staff_game_user_id" from "shifts" as "sh" inner join "staff" as "st" on "st"."id" = "sh"."staff_id" where "sh"."id" = $1 and "sh"."workspace_id" = $2 and "sh"."environment" = $3;
-- values: ["shift-1","workspace-1","test"]

-- listLiveShifts
select "sh".*, "st"."display_name" as "staff_display_name", "st"."game_user_id" as "staff_game_user_id" from "shifts" as "sh" inner join "staff" as "st" on "st"."id" = "sh"."staff_id" where "sh"."workspace_id" = $1 and "sh"."environment" = $2 and (sh.status = 'active' and sh.last_seen_at >= $3) and ("sh"."started_at" > $4 or ("sh"."started_at" = $5 and "sh"."id" > $6)) order by "sh"."started_at", "sh"."id" limit $7;
-- values: ["workspace-1","test",1773230100000,1773226800000,1773226800000,"shift-1",51]
