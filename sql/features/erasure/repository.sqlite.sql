-- findStaff (everywhere)
select "id", "display_name", "game_username", "chat_user_id" from "staff" where "game_user_id" = +? order by "id";
-- values: ["1001"]

-- findStaff (inWorkspace)
select "id", "display_name", "game_username", "chat_user_id" from "staff" where "game_user_id" = +? and "workspace_id" = +? order by "id";
-- values: ["1001","workspace-1"]

-- findSubmissionCandidates (everywhere)
select "id", "game_user_id", "applicant", "answers" from "submissions" where ("game_user_id" = +? or "applicant" like +?) order by "id";
-- values: ["1001","%\"gameUserId\":\"1001\"%"]

-- findSubmissionCandidates (inWorkspace)
select "id", "game_user_id", "applicant", "answers" from "submissions" where ("game_user_id" = +? or "applicant" like +?) and "workspace_id" = +? order by "id";
-- values: ["1001","%\"gameUserId\":\"1001\"%","workspace-1"]

-- anonymiseStaff
update "staff" set "display_name" = +?, "game_username" = +?, "game_user_id" = +?, "chat_user_id" = +? where "id" = +?;
-- values: ["erased-staff-1","erased-staff-1","erased-staff-1",null,"staff-1"]

-- findNoticeIds
select "id" from "inactivity_notices" where "staff_id" in (+?) order by "id";
-- values: ["staff-1"]

-- replaceNoticeTexts
update "inactivity_notices" set "reason" = +?, "decision_note" = case when decision_note is null then null else +? end where "staff_id" in (+?) and ("reason" <> +? or ("decision_note" is not null and "decision_note" <> +?)) returning "id";
-- values: ["erased","erased","staff-1","erased","erased"]

-- eraseSubmission
update "submissions" set "applicant" = +?, "answers" = +?, "reviewer_notes" = +?, "game_user_id" = +? where "id" = +?;
-- values: ["{\"gameUserId\":null}","{}",null,null,"submission-1"]

-- findCommandCopies (everywhere)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in (+?) or "payload" like +?) order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%"]

-- findCommandCopies (inWorkspace)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in (+?) or "payload" like +?) and "workspace_id" = +? order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- findEventCopies (everywhere)
select "id", "command_id", "payload" from "events" where ("command_id" in (+?) or "payload" like +?) order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%"]

-- findEventCopies (inWorkspace)
select "id", "command_id", "payload" from "events" where ("command_id" in (+?) or "payload" like +?) and "workspace_id" = +? order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- findWebhookCopies (everywhere)
select "id", "body" from "webhook_events" where ("body" like +? or "body" like +?) order by "id";
-- values: ["%1001%","%submission-1%"]

-- findWebhookCopies (inWorkspace)
select "id", "body" from "webhook_events" where ("body" like +? or "body" like +?) and "workspace_id" = +? order by "id";
-- values: ["%1001%","%submission-1%","workspace-1"]

-- findResponseCopies
select "scope", "key", "response_body" from "idempotency_records" where ("response_body" like +? or "response_body" like +?) order by "scope", "key";
-- values: ["%1001%","%submission-1%"]

-- setCommandPayload
update "commands" set "payload" = +? where "id" = +?;
-- values: ["{}","command-1"]

-- setEventPayload
update "events" set "payload" = +? where "id" = +?;
-- values: ["{}","event-1"]

-- setWebhookBody
update "webhook_events" set "body" = +? where "id" = +?;
-- values: ["{}","event-1"]

-- setResponseBody
update "idempotency_records" set "response_body" = +? where "scope" = +? and "key" = +?;
-- values: ["{}","scope-1","key-1"]

-- findReceiverAnswers
select "id", "last_response", "last_error" from "webhook_deliveries" where "event_id" in (+?) order by "id";
-- values: ["event-1"]
select "a"."id", "a"."response_excerpt", "a"."error" from "webhook_attempts" as "a" inner join "webhook_deliveries" as "d" on "d"."id" = "a"."delivery_id" where "d"."event_id" in (+?) order by "a"."id";
-- values: ["event-1"]

-- clearDeliveryAnswer
update "webhook_deliveries" set "last_response" = +?, "last_error" = +? where "id" = +?;
-- values: [null,null,"delivery-1"]

-- clearAttemptAnswer
update "webhook_attempts" set "response_excerpt" = +?, "error" = +? where "id" = +?;
-- values: [null,null,"attempt-1"]

-- insertErasure
insert into "erasures" ("id", "ran_at", "changes") values (+?, +?, +?);
-- values: ["erasure-1",1773230400000,"{}"]
