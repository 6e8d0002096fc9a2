-- findOwnedShift
select * from "shifts" where "id" = ? and "application_id" = ? and "environment" = ?;
-- values: ["shift-1","application-1","test"]

-- findOwnedShifts
select * from "shifts" where "id" in (?, ?) and "application_id" = ? and "environment" = ?;
-- values: ["shift-1","shift-2","application-1","test"]

-- findActiveShift
-- named statement findActiveShift (named.sqlite.sql)
-- values: ["application-1","test","staff-1"]

-- findActiveShiftsOfServer
select * from "shifts" where "application_id" = ? and "environment" = ? and "status" = 'active' and "server_id" = ?;
-- values: ["application-1","test","server-1"]

-- lockShifts
-- named statement lockShifts (named.sqlite.sql)
-- values: ["[\"shift-1\",\"shift-2\"]"]

-- recordHeartbeat
-- named statement recordHeartbeat (named.sqlite.sql)
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,"application-1","test",1773230400000,"server-1"]

-- recordHeartbeats
-- named statement recordHeartbeats (named.sqlite.sql)
-- values: [1773230400000,1773230400000,"[\"shift-1\",\"shift-2\"]",1773230100000,"application-1","test",1773230400000,"server-1"]

-- recordKnownHeartbeat
-- named statement recordKnownHeartbeat (named.sqlite.sql)
-- values: [1773230400000,1773230400000,"shift-1",1773230100000,1773230400000,"application-1","test",1773230400000,"server-1","key-hash","key-1","test","[\"activity:write\"]",1773230400000,"application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]","app:application-1:test","idempotency-key-1"]

-- findVisibleShift
select "sh".*, "st"."display_name" as "staff_display_name", "st"."game_user_id" as "staff_game_user_id" from "shifts" as "sh" inner join "staff" as "st" on "st"."id" = "sh"."staff_id" where "sh"."id" = ? and "sh"."workspace_id" = ? and "sh"."environment" = ?;
-- values: ["shift-1","workspace-1","test"]

-- listLiveShifts
select "sh".*, "st"."display_name" as "staff_display_name", "st"."game_user_id" as "staff_game_user_id" from "shifts" as "sh" inner join "staff" as "st" on "st"."id" = "sh"."staff_id" where "sh"."workspace_id" = ? and "sh"."environment" = ? and "sh"."status" = 'active' and "sh"."last_seen_at" >= ? and ("sh"."started_at" > ? or ("sh"."started_at" = ? and "sh"."id" > ?)) order by "sh"."started_at", "sh"."id" limit ?;
-- values: ["workspace-1","test",1773230100000,1773226800000,1773226800000,"shift-1",51]
