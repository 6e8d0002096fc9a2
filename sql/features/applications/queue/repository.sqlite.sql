-- listQueue (pending, first page)
select "s"."id", "s"."form_id", "s"."status", "s"."environment", "s"."applicant", "s"."score", "s"."created_at", "s"."reviewed_at", "s"."accepted_at", "s"."rejected_at", "f"."name" as "form_name" from "submissions" as "s" left join "application_forms" as "f" on "f"."id" = "s"."form_id" where "s"."workspace_id" = +? and "s"."environment" = +? and s.status in ('submitted', 'under_review') order by "s"."created_at", "s"."id" limit +?;
-- values: ["workspace-1","live",26]

-- listQueue (a form, after a cursor)
select "s"."id", "s"."form_id", "s"."status", "s"."environment", "s"."applicant", "s"."score", "s"."created_at", "s"."reviewed_at", "s"."accepted_at", "s"."rejected_at", "f"."name" as "form_name" from "submissions" as "s" left join "application_forms" as "f" on "f"."id" = "s"."form_id" where "s"."workspace_id" = +? and "s"."environment" = +? and "s"."status" in (+?) and "s"."form_id" = +? and ("s"."created_at" > +? or ("s"."created_at" = +? and "s"."id" > +?)) order by "s"."created_at", "s"."id" limit +?;
-- values: ["workspace-1","test","accepted","form-1",1773230400000,1773230400000,"submission-1",26]

-- findSubmissionDetail
select "s"."id", "s"."form_id", "s"."status", "s"."environment", "s"."applicant", "s"."score", "s"."created_at", "s"."reviewed_at", "s"."accepted_at", "s"."rejected_at", "f"."name" as "form_name", "s"."workspace_id", "s"."reviewer_notes", "s"."staff_profile_id", "s"."answers" from "submissions" as "s" left join "application_forms" as "f" on "f"."id" = "s"."form_id" where "s"."id" = +?;
-- values: ["submission-1"]

-- listHistory
select "c"."id" as "command_id", "e"."id" as "event_id", "c"."type", "c"."actor_type", "c"."actor_id", "a"."name" as "application_name", "c"."payload", "c"."created_at" from "commands" as "c" inner join "events" as "e" on "e"."command_id" = "c"."id" left join "applications" as "a" on "a"."id" = "c"."actor_id" and "c"."actor_type" = +? where "c"."submission_id" = +? and "c"."type" in (+?, +?) order by "c"."created_at", "c"."id";
-- values: ["api_key","submission-1","application.submission.submit","application.submission.accept"]

-- listForms
select "id", "name" from "application_forms" where "workspace_id" in (+?);
-- values: ["workspace-1"]

-- countByFormAndStatus
select "form_id", "status", count(*) as "count" from "submissions" where "workspace_id" in (+?) and "environment" = +? group by "form_id", "status";
-- values: ["workspace-1","live"]
