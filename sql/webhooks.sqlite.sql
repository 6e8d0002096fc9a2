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

-- claimDueDeliveries
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= +? and (claimed_until is null or claimed_until <= +?)
  and endpoint_id not in (select value from json_each(+?))
limit 1;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

-- claimDueDeliveries (deliveries due)
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= +? and (claimed_until is null or claimed_until <= +?)
  and endpoint_id not in (select value from json_each(+?))
limit 1;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]
select id, endpoint_id from webhook_deliveries
where status = 'pending' and next_attempt_at <= +? and (claimed_until is null or claimed_until <= +?)
  and endpoint_id not in (select value from json_each(+?))
order by next_attempt_at
limit +?;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]",32]
update webhook_deliveries set claimed_until = +?, claimed_by = +?
where id in (select value from json_each(+?));
-- values: [1773230460000,"instance-1","[\"delivery-1\"]"]
select d.id, d.event_id, d.endpoint_id, d.attempts, d.expires_at, p.url, p.secret, e.body
from webhook_deliveries as d
join webhook_events as e on e.id = d.event_id
join webhook_endpoints as p on p.id = d.endpoint_id
where d.id in (select value from json_each(+?));
-- values: ["[\"delivery-1\"]"]

-- recordAttempts
insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt)
select value ->> 'id', value ->> 'delivery_id', value ->> 'attempt', value ->> 'started_at', value ->> 'duration_ms', value ->> 'status', value ->> 'error', value ->> 'response_excerpt'
from json_each(+?);
-- values: ["[{\"id\":\"<uuid>\",\"delivery_id\":\"delivery-1\",\"attempt\":1,\"started_at\":1773230400000,\"duration_ms\":120,\"status\":200,\"error\":null,\"response_excerpt\":\"ok\"}]"]
update webhook_deliveries set
  status = results.outcome,
  attempts = results.attempt,
  next_attempt_at = results.next_attempt_at,
  claimed_until = null,
  claimed_by = null,
  last_status = results.status,
  last_duration_ms = results.duration_ms,
  last_response = results.excerpt,
  last_error = results.error,
  updated_at = results.finished_at,
  delivered_at = coalesce(results.delivered_at, webhook_deliveries.delivered_at)
from (select value ->> 'id' as id, value ->> 'owner' as owner, value ->> 'outcome' as outcome, value ->> 'attempt' as attempt, value ->> 'next_attempt_at' as next_attempt_at, value ->> 'status' as status, value ->> 'duration_ms' as duration_ms, value ->> 'excerpt' as excerpt, value ->> 'error' as error, value ->> 'finished_at' as finished_at, value ->> 'delivered_at' as delivered_at from json_each(+?)) as results
where webhook_deliveries.id = results.id
  and webhook_deliveries.claimed_by = results.owner;
-- values: ["[{\"id\":\"delivery-1\",\"owner\":\"instance-1\",\"outcome\":\"delivered\",\"attempt\":1,\"next_attempt_at\":1773230400000,\"status\":200,\"duration_ms\":120,\"excerpt\":\"ok\",\"error\":null,\"finished_at\":1773230400120,\"delivered_at\":1773230400120}]"]

-- bringDeliveriesForward
update "webhook_deliveries" set "next_attempt_at" = +?, "updated_at" = +? where "status" = 'pending' and "next_attempt_at" > +? and "endpoint_id" in (+?, +?);
-- values: [1773230400000,1773230400000,1773230400000,"endpoint-1","endpoint-2"]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = +?, "claimed_by" = +? where "id" in (+?) and "claimed_by" = +?;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = 'pending';
-- values: []
