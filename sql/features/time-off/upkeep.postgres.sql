-- upsertNotices
insert into "inactivity_notices" ("id", "workspace_id", "staff_id", "starts_at", "ends_at", "reason", "status", "environment", "created_at", "decided_at", "decision_note", "decided_by", "origin") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) on conflict ("id") do update set "staff_id" = "excluded"."staff_id", "starts_at" = "excluded"."starts_at", "ends_at" = "excluded"."ends_at", "reason" = "excluded"."reason", "status" = "excluded"."status", "decided_at" = "excluded"."decided_at", "decision_note" = "excluded"."decision_note", "decided_by" = "excluded"."decided_by" where (("inactivity_notices"."staff_id" is distinct from "excluded"."staff_id" or "inactivity_notices"."starts_at" is distinct from "excluded"."starts_at" or "inactivity_notices"."ends_at" is distinct from "excluded"."ends_at" or "inactivity_notices"."reason" is distinct from "excluded"."reason" or "inactivity_notices"."status" is distinct from "excluded"."status" or "inactivity_notices"."decided_at" is distinct from "excluded"."decided_at" or "inactivity_notices"."decision_note" is distinct from "excluded"."decision_note" or "inactivity_notices"."decided_by" is distinct from "excluded"."decided_by") and "inactivity_notices"."origin" = $14);
-- values: ["notice-1","workspace-1","staff-1",1773230400000,1773316800000,"Exams","pending","live",1773230400000,null,null,null,"provisioned","provisioned"]

-- findNoticeIds
select "id" from "inactivity_notices" where "staff_id" in ($1) order by "id";
-- values: ["staff-1"]

-- replaceNoticeTexts
update "inactivity_notices" set "reason" = $1, "decision_note" = case when decision_note is null then null else $2 end where "staff_id" in ($3) and ("reason" <> $4 or ("decision_note" is not null and "decision_note" <> $5)) returning "id";
-- values: ["erased","erased","staff-1","erased","erased"]
