-- findSubscribers
select id, workspace_id, events from webhook_endpoints
where workspace_id = any(array(select json_array_elements_text($1::json))) and enabled = 1;
-- values: ["[\"workspace-1\"]"]

-- writeWebhookEvents
insert into webhook_events (id, workspace_id, type, environment, body, created_at)
select id, workspace_id, type, environment, body, created_at
from json_to_recordset($1::json) as r(id text, workspace_id text, type text, environment text, body text, created_at bigint);
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
insert into webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, status, attempts)
select id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, 'pending', 0
from json_to_recordset($1::json) as r(id text, event_id text, endpoint_id text, workspace_id text, next_attempt_at bigint, expires_at bigint, created_at bigint, updated_at bigint);
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000},{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-2\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]

-- enqueueWebhookEvent
insert into webhook_events (id, workspace_id, type, environment, body, created_at)
select id, workspace_id, type, environment, body, created_at
from json_to_recordset($1::json) as r(id text, workspace_id text, type text, environment text, body text, created_at bigint);
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
insert into webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, status, attempts)
select id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, 'pending', 0
from json_to_recordset($1::json) as r(id text, event_id text, endpoint_id text, workspace_id text, next_attempt_at bigint, expires_at bigint, created_at bigint, updated_at bigint);
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]
