-- findPendingSubmission
-- named statement findPendingSubmission (named.postgres.sql)
-- values: ["form-1","live","2001"]

-- lastRejectionAt
-- named statement findLastRejection (named.postgres.sql)
-- values: ["form-1","live","2001"]

-- insertSubmissionUnlessPending
-- named statement insertSubmissionUnlessPending (named.postgres.sql)
-- values: ["submission-1","workspace-1","submitted",null,null,"{\"gameUserId\":\"2001\",\"gameUsername\":null,\"displayName\":null,\"chatUserId\":null}","[]",1773230400000,null,null,null,null,1773230400000,"form-1","live","2001"]

-- listApplicantSubmissions
select "s"."id", "s"."form_id", "f"."name" as "form_name", "s"."status", "s"."created_at", "s"."accepted_at", "s"."rejected_at" from "submissions" as "s" left join "application_forms" as "f" on "f"."id" = "s"."form_id" where "s"."workspace_id" = $1 and "s"."environment" = $2 and "s"."game_user_id" = $3 order by "s"."created_at" desc, "s"."id" desc limit $4;
-- values: ["workspace-1","live","2001",20]
