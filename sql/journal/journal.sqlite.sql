-- recordOperation
insert into commands (id, workspace_id, type, actor_type, actor_id, submission_id, request_id, idempotency_key, payload,
  created_at)
values (+?, +?, +?, +?, +?, +?, +?,
  +?, +?, +?);
-- values: ["<uuid>","workspace-1","application.submission.accept","user","user-1","submission-1","req_0000000000000000","idempotency-key-1","{\"submissionId\":\"submission-1\"}",1773230400000]
insert into events (id, workspace_id, command_id, type, payload, created_at)
values (+?, +?, +?, +?, +?, +?);
-- values: ["<uuid>","workspace-1","<uuid>","application.submission.accepted","{\"submissionId\":\"submission-1\",\"status\":\"accepted\"}",1773230400000]
select id, workspace_id, events from webhook_endpoints
where workspace_id in (select value from json_each(+?)) and enabled = 1;
-- values: ["[\"workspace-1\"]"]
