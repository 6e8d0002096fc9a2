-- lockStaff
select id from staff where id = $1
for no key update;
-- values: ["staff-1"]

-- findOverlappingNotice (request)
select id from inactivity_notices
where staff_id = $1 and environment = $2 and status in ($3, $4)
  and ends_at > $5 and starts_at < $6
order by starts_at, id
limit 1;
-- values: ["staff-1","live","pending","approved",1773230400000,1773316800000]

-- findOverlappingNotice (approval)
select id from inactivity_notices
where staff_id = $1 and environment = $2 and status in ($3)
  and ends_at > $4 and starts_at < $5 and id <> $6
order by starts_at, id
limit 1;
-- values: ["staff-1","live","approved",1773230400000,1773316800000,"notice-1"]

-- insertNotice
insert into "inactivity_notices" ("id", "workspace_id", "staff_id", "starts_at", "ends_at", "reason", "status", "environment", "created_at", "decided_at", "decision_note", "decided_by", "origin") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);
-- values: ["notice-1","workspace-1","staff-1",1773230400000,1773316800000,"Exams","pending","live",1773230400000,null,null,null,"api"]

-- insertNoticeIfClear
insert into inactivity_notices ("id", "workspace_id", "staff_id", "starts_at", "ends_at", "reason", "status", "environment", "created_at", "decided_at", "decision_note", "decided_by", "origin")
select $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13
where not exists (select id from inactivity_notices
where staff_id = $14 and environment = $15 and status in ($16, $17)
  and ends_at > $18 and starts_at < $19)
returning id;
-- values: ["notice-1","workspace-1","staff-1",1773230400000,1773316800000,"Exams","pending","live",1773230400000,null,null,null,"api","staff-1","live","pending","approved",1773230400000,1773316800000]

-- findNotice
select * from "inactivity_notices" where "id" = $1;
-- values: ["notice-1"]

-- findNoticeLockingStaff
select "n".* from "inactivity_notices" as "n" inner join "staff" as "s" on "s"."id" = "n"."staff_id" where "n"."id" = $1 for no key update of s;
-- values: ["notice-1"]

-- updateNoticeIf (denial)
update "inactivity_notices" set "status" = $1, "decided_at" = $2, "decided_by" = $3 where "id" = $4 and "status" = $5 returning *;
-- values: ["denied",1773230400000,"user-1","notice-1","pending"]

-- updateNoticeIf (approval)
update "inactivity_notices" set "status" = $1, "decided_at" = $2, "decided_by" = $3 where "id" = $4 and "status" = $5 and not exists (select id from inactivity_notices
where staff_id = $6 and environment = $7 and status in ($8)
  and ends_at > $9 and starts_at < $10 and id <> $11) returning *;
-- values: ["approved",1773230400000,"user-1","notice-1","pending","staff-1","live","approved",1773230400000,1773316800000,"notice-1"]

-- updateNoticeIf (notStarted)
update "inactivity_notices" set "status" = $1 where "id" = $2 and "status" = $3 and "starts_at" > $4 returning *;
-- values: ["cancelled","notice-1","approved",1773230400000]

-- updateNoticeIf (underWay)
update "inactivity_notices" set "ends_at" = $1 where "id" = $2 and "status" = $3 and "starts_at" <= $4 and "ends_at" > $5 returning *;
-- values: [1773230400000,"notice-1","approved",1773230400000,1773230400000]

-- listStaffNotices
select * from "inactivity_notices" where "staff_id" = $1 and "environment" = $2 order by "starts_at" desc, "id" desc limit $3;
-- values: ["staff-1","live",20]

-- listNotices (firstPage)
select n.*, s.display_name, s.game_user_id, s.chat_user_id, s.department_id
from inactivity_notices as n
join staff as s on s.id = n.staff_id
where n.workspace_id = $1 and n.environment = $2
  and n.status in ($3)
order by n.starts_at, n.id
limit $4;
-- values: ["workspace-1","live","pending",26]

-- listNotices (afterCursorOfOneStaff)
select n.*, s.display_name, s.game_user_id, s.chat_user_id, s.department_id
from inactivity_notices as n
join staff as s on s.id = n.staff_id
where n.workspace_id = $1 and n.environment = $2
  and n.status in ($3, $4) and n.staff_id = $5
  and (n.starts_at > $6 or (n.starts_at = $7 and n.id > $8))
order by n.starts_at, n.id
limit $9;
-- values: ["workspace-1","live","pending","approved","staff-1",1773230400000,1773230400000,"notice-1",26]
