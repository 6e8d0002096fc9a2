-- findPendingSubmission
select id from submissions
where form_id = $1 and environment = $2 and game_user_id = $3 and status in ('submitted', 'under_review');
-- values: ["form-1","live","2001"]

-- findApplicantState
select
  (select id from submissions where form_id = $1 and environment = $2 and game_user_id = $3 and status in ('submitted', 'under_review')) as pending_id,
  (select max(rejected_at) from submissions where form_id = $4 and environment = $5 and game_user_id = $6 and status = 'rejected') as rejected_at;
-- values: ["form-1","live","2001","form-1","live","2001"]

-- insertSubmissionUnlessPending
insert into submissions (id, workspace_id, status, score, reviewer_notes, applicant, answers, created_at, reviewed_at,
  accepted_at, rejected_at, staff_profile_id, updated_at, form_id, environment, game_user_id)
values ($1, $2, $3, $4, $5, $6, $7, $8,
  $9, $10, $11, $12, $13, $14, $15,
  $16)
on conflict do nothing
returning id;
-- values: ["submission-1","workspace-1","submitted",null,null,"{\"gameUserId\":\"2001\",\"gameUsername\":null,\"displayName\":null,\"chatUserId\":null}","[]",1773230400000,null,null,null,null,1773230400000,"form-1","live","2001"]

-- listApplicantSubmissions
select "s"."id", "s"."form_id", "f"."name" as "form_name", "s"."status", "s"."created_at", "s"."accepted_at", "s"."rejected_at" from "submissions" as "s" left join "application_forms" as "f" on "f"."id" = "s"."form_id" where "s"."workspace_id" = $1 and "s"."environment" = $2 and "s"."game_user_id" = $3 order by "s"."created_at" desc, "s"."id" desc limit $4;
-- values: ["workspace-1","live","2001",20]
