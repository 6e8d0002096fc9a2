-- lockStaff

-- findOverlappingNotice (request)
select id from inactivity_notices
where staff_id = +? and environment = +? and status in (+?, +?)
  and ends_at > +? and starts_at < +?
order by starts_at, id
limit 1;
-- values: ["staff-1","live","pending","approved",1773230400000,1773316800000]

-- findOverlappingNotice (approval)
select id from inactivity_notices
where staff_id = +? and environment = +? and status in (+?)
  and ends_at > +? and starts_at < +? and id <> +?
order by starts_at, id
limit 1;
-- values: ["staff-1","live","approved",1773230400000,1773316800000,"notice-1"]

-- insertNotice
insert into "inactivity_notices" ("id", "workspace_id", "staff_id", "starts_at", "ends_at", "reason", "status", "environment", "created_at", "decided_at", "decision_note", "decided_by", "origin") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?);
-- values: ["notice-1","workspace-1","staff-1",1773230400000,1773316800000,"Exams","pending","live",1773230400000,null,null,null,"api"]

-- insertNoticeIfClear
insert into inactivity_notices ("id", "workspace_id", "staff_id", "starts_at", "ends_at", "reason", "status", "environment", "created_at", "decided_at", "decision_note", "decided_by", "origin")
select +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?, +?
where not exists (select id from inactivity_notices
where staff_id = +? and environment = +? and status in (+?, +?)
  and ends_at > +? and starts_at < +?)
returning id;
-- values: ["notice-1","workspace-1","staff-1",1773230400000,1773316800000,"Exams","pending","live",1773230400000,null,null,null,"api","staff-1","live","pending","approved",1773230400000,1773316800000]

-- findNotice
select * from "inactivity_notices" where "id" = +?;
-- values: ["notice-1"]

-- findNoticeLockingStaff
select "n".* from "inactivity_notices" as "n" inner join "staff" as "s" on "s"."id" = "n"."staff_id" where "n"."id" = +? ;
-- values: ["notice-1"]

-- updateNoticeIf (denial)
update "inactivity_notices" set "status" = +?, "decided_at" = +?, "decided_by" = +? where "id" = +? and "status" = +? returning *;
-- values: ["denied",1773230400000,"user-1","notice-1","pending"]

-- updateNoticeIf (approval)
update "inactivity_notices" set "status" = +?, "decided_at" = +?, "decided_by" = +? where "id" = +? and "status" = +? and not exists (select id from inactivity_notices
where staff_id = +? and environment = +? and status in (+?)
  and ends_at > +? and starts_at < +? and id <> +?) returning *;
-- values: ["approved",1773230400000,"user-1","notice-1","pending","staff-1","live","approved",1773230400000,1773316800000,"notice-1"]

-- updateNoticeIf (notStarted)
update "inactivity_notices" set "status" = +? where "id" = +? and "status" = +? and "starts_at" > +? returning *;
-- values: ["cancelled","notice-1","approved",1773230400000]

-- updateNoticeIf (underWay)
update "inactivity_notices" set "ends_at" = +? where "id" = +? and "status" = +? and "starts_at" <= +? and "ends_at" > +? returning *;
-- values: [1773230400000,"notice-1","approved",1773230400000,1773230400000]

-- listStaffNotices
select * from "inactivity_notices" where "staff_id" = +? and "environment" = +? order by "starts_at" desc, "id" desc limit +?;
-- values: ["staff-1","live",20]

-- listNotices (firstPage)
select n.*, s.display_name, s.game_user_id, s.chat_user_id, s.department_id
from inactivity_notices as n
join staff as s on s.id = n.staff_id
where n.workspace_id = +? and n.environment = +?
  and n.status in (+?)
order by n.starts_at, n.id
limit +?;
-- values: ["workspace-1","live","pending",26]

-- listNotices (afterCursorOfOneStaff)
select n.*, s.display_name, s.game_user_id, s.chat_user_id, s.department_id
from inactivity_notices as n
join staff as s on s.id = n.staff_id
where n.workspace_id = +? and n.environment = +?
  and n.status in (+?, +?) and n.staff_id = +?
  and (n.starts_at > +? or (n.starts_at = +? and n.id > +?))
order by n.starts_at, n.id
limit +?;
-- values: ["workspace-1","live","pending","approved","staff-1",1773230400000,1773230400000,"notice-1",26]
