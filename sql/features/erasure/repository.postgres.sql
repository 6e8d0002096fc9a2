-- findStaff (everywhere)
select "id", "display_name", "game_username", "chat_user_id" from "staff" where "game_user_id" = $1 order by "id";
-- values: ["1001"]

-- findStaff (inWorkspace)
select "id", "display_name", "game_username", "chat_user_id" from "staff" where "game_user_id" = $1 and "workspace_id" = $2 order by "id";
-- values: ["1001","workspace-1"]

-- findSubmissionCandidates (everywhere)
select "id", "game_user_id", "applicant", "answers" from "submissions" where ("game_user_id" = $1 or "applicant" like $2) order by "id";
-- values: ["1001","%\"gameUserId\":\"1001\"%"]

-- findSubmissionCandidates (inWorkspace)
select "id", "game_user_id", "applicant", "answers" from "submissions" where ("game_user_id" = $1 or "applicant" like $2) and "workspace_id" = $3 order by "id";
-- values: ["1001","%\"gameUserId\":\"1001\"%","workspace-1"]

-- anonymiseStaff
update "staff" set "display_name" = $1, "game_username" = $2, "game_user_id" = $3, "chat_user_id" = $4 where "id" = $5;
-- values: ["erased-staff-1","erased-staff-1","erased-staff-1",null,"staff-1"]

-- findNoticeIds
select "id" from "inactivity_notices" where "staff_id" in ($1) order by "id";
-- values: ["staff-1"]

-- replaceNoticeTexts
update "inactivity_notices" set "reason" = $1, "decision_note" = case when decision_note is null then null else $2 end where "staff_id" in ($3) and ("reason" <> $4 or ("decision_note" is not null and "decision_note" <> $5)) returning "id";
-- values: ["erased","erased","staff-1","erased","erased"]

-- eraseSubmission
update "submissions" set "applicant" = $1, "answers" = $2, "reviewer_notes" = $3, "game_user_id" = $4 where "id" = $5;
-- values: ["{\"gameUserId\":null}","{}",null,null,"submission-1"]

-- findCommandCopies (everywhere)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in ($1) or "payload" like $2) order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%"]

-- findCommandCopies (inWorkspace)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in ($1) or "payload" like $2) and "workspace_id" = $3 order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- findEventCopies (everywhere)
select "id", "command_id", "payload" from "events" where ("command_id" in ($1) or "payload" like $2) order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%"]

-- findEventCopies (inWorkspace)
select "id", "command_id", "payload" from "events" where ("command_id" in ($1) or "payload" like $2) and "workspace_id" = $3 order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- findWebhookCopies (everywhere)
select "id", "body" from "webhook_events" where ("body" like $1 or "body" like $2) order by "id";
-- values: ["%1001%","%submission-1%"]

-- findWebhookCopies (inWorkspace)
select "id", "body" from "webhook_events" where ("body" like $1 or "body" like $2) and "workspace_id" = $3 order by "id";
-- values: ["%1001%","%submission-1%","workspace-1"]

-- findResponseCopies
select "scope", "key", "response_body" from "idempotency_records" where ("response_body" like $1 or "response_body" like $2) order by "scope", "key";
-- values: ["%1001%","%submission-1%"]

-- setCommandPayload
update "commands" set "payload" = $1 where "id" = $2;
-- values: ["{}","command-1"]

-- setEventPayload
update "events" set "payload" = $1 where "id" = $2;
-- values: ["{}","event-1"]

-- setWebhookBody
update "webhook_events" set "body" = $1 where "id" = $2;
-- values: ["{}","event-1"]

-- setResponseBody
update "idempotency_records" set "response_body" = $1 where "scope" = $2 and "key" = $3;
-- values: ["{}","scope-1","key-1"]

-- findReceiverAnswers
select "id", "last_response", "last_error" from "webhook_deliveries" where "event_id" in ($1) order by "id";
-- values: ["event-1"]
select "a"."id", "a"."response_excerpt", "a"."error" from "webhook_attempts" as "a" inner join "webhook_deliveries" as "d" on "d"."id" = "a"."delivery_id" where "d"."event_id" in ($1) order by "a"."id";
-- values: ["event-1"]

-- clearDeliveryAnswer
update "webhook_deliveries" set "last_response" = $1, "last_error" = $2 where "id" = $3;
-- values: [null,null,"delivery-1"]

-- clearAttemptAnswer
update "webhook_attempts" set "response_excerpt" = $1, "error" = $2 where "id" = $3;
-- values: [null,null,"attempt-1"]

-- insertErasure
insert into "erasures" ("id", "ran_at", "changes") values ($1, $2, $3);
-- values: ["erasure-1",1773230400000,"{}"]
