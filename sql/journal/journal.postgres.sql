-- recordOperation
with write_0 as (
insert into commands (id, workspace_id, type, actor_type, actor_id, submission_id, request_id, idempotency_key, payload,
  created_at)
values ($1, $2, $3, $4, $5, $6, $7,
  $8, $9, $10)
),
write_1 as (
insert into events (id, workspace_id, command_id, type, payload, created_at)
values ($11, $12, $13, $14, $15, $16)
)
select id, workspace_id, events from webhook_endpoints
where workspace_id = any(array(select json_array_elements_text($17::json))) and enabled = 1;
-- values: ["<uuid>","workspace-1","application.submission.accept","user","user-1","submission-1","req_0000000000000000","idempotency-key-1","{\"submissionId\":\"submission-1\"}",1773230400000,"<uuid>","workspace-1","<uuid>","application.submission.accepted","{\"submissionId\":\"submission-1\",\"status\":\"accepted\"}",1773230400000,"[\"workspace-1\"]"]
