-- startShift
-- named statement startShift (named.postgres.sql)
-- values: ["shift-1","workspace-1","application-1","test","staff-1","42","7","server-1",1773226800000,1773226800000,1773230400000,1773230400000]

-- stopShift
-- named statement stopShift (named.postgres.sql)
-- values: [1773230400000,"manual","shift-1",1773230100000,"application-1","test",1773230400000]

-- timeOutShift
update "shifts" set "status" = 'completed', "ended_at" = "last_heartbeat_at", "end_reason" = $1 where "id" = $2 and case when "status" = 'active' then "last_seen_at" end < $3 returning *;
-- values: ["heartbeat_timeout","shift-1",1773230100000]

-- timeOutShifts
select "id" from "shifts" where "status" = 'active' and "last_seen_at" < $1 limit $2;
-- values: [1773230100000,500]
