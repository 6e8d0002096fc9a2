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

-- claimDueDeliveries
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= $1 and (claimed_until is null or claimed_until <= $2)
  and endpoint_id not in (select json_array_elements_text($3::json))
limit 1;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

-- claimDueDeliveries (deliveries due)
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= $1 and (claimed_until is null or claimed_until <= $2)
  and endpoint_id not in (select json_array_elements_text($3::json))
limit 1;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
select id, endpoint_id from webhook_deliveries
where status = 'pending' and next_attempt_at <= $1 and (claimed_until is null or claimed_until <= $2)
  and endpoint_id not in (select json_array_elements_text($3::json))
order by next_attempt_at
limit $4
for update skip locked;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]",32]
update webhook_deliveries set claimed_until = $1, claimed_by = $2
where id = any(array(select json_array_elements_text($3::json)));
-- values: [1773230460000,"instance-1","[\"delivery-1\"]"]
select d.id, d.event_id, d.endpoint_id, d.attempts, d.expires_at, p.url, p.secret, e.body
from webhook_deliveries as d
join webhook_events as e on e.id = d.event_id
join webhook_endpoints as p on p.id = d.endpoint_id
where d.id = any(array(select json_array_elements_text($1::json)));
-- values: ["[\"delivery-1\"]"]

-- recordAttempts
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
insert into webhook_attempts (id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt)
select id, delivery_id, attempt, started_at, duration_ms, status, error, response_excerpt
from json_to_recordset($1::json) as r(id text, delivery_id text, attempt integer, started_at bigint, duration_ms integer, status integer, error text, response_excerpt text);
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
from json_to_recordset($1::json) as results(id text, owner text, outcome text, attempt integer, next_attempt_at bigint, status integer, duration_ms integer, excerpt text, error text, finished_at bigint, delivered_at bigint)
where webhook_deliveries.id = results.id
  and webhook_deliveries.claimed_by = results.owner;
-- values: ["[{\"id\":\"delivery-1\",\"owner\":\"instance-1\",\"outcome\":\"delivered\",\"attempt\":1,\"next_attempt_at\":1773230400000,\"status\":200,\"duration_ms\":120,\"excerpt\":\"ok\",\"error\":null,\"finished_at\":1773230400120,\"delivered_at\":1773230400120}]"]

-- bringDeliveriesForward
update "webhook_deliveries" set "next_attempt_at" = $1, "updated_at" = $2 where "status" = 'pending' and "next_attempt_at" > $3 and "endpoint_id" in ($4, $5);
-- values: [1773230400000,1773230400000,1773230400000,"endpoint-1","endpoint-2"]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = $1, "claimed_by" = $2 where "id" in ($3) and "claimed_by" = $4;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = 'pending';
-- values: []
