-- findSubscribers
select id, workspace_id, events from webhook_endpoints
where workspace_id in (select value from json_each(+?)) and enabled = 1;
-- values: ["[\"workspace-1\"]"]

-- writeWebhookEvents
insert into webhook_events (id, workspace_id, type, environment, body, created_at)
select value ->> 'id', value ->> 'workspace_id', value ->> 'type', value ->> 'environment', value ->> 'body', value ->> 'created_at'
from json_each(+?);
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
insert into webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, status, attempts)
select value ->> 'id', value ->> 'event_id', value ->> 'endpoint_id', value ->> 'workspace_id', value ->> 'next_attempt_at', value ->> 'expires_at', value ->> 'created_at', value ->> 'updated_at', 'pending', 0
from json_each(+?);
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000},{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-2\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]

-- enqueueWebhookEvent
insert into webhook_events (id, workspace_id, type, environment, body, created_at)
select value ->> 'id', value ->> 'workspace_id', value ->> 'type', value ->> 'environment', value ->> 'body', value ->> 'created_at'
from json_each(+?);
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
insert into webhook_deliveries
  (id, event_id, endpoint_id, workspace_id, next_attempt_at, expires_at, created_at, updated_at, status, attempts)
select value ->> 'id', value ->> 'event_id', value ->> 'endpoint_id', value ->> 'workspace_id', value ->> 'next_attempt_at', value ->> 'expires_at', value ->> 'created_at', value ->> 'updated_at', 'pending', 0
from json_each(+?);
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]
