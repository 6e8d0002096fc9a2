-- claimDueDeliveries
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= $1 and (claimed_until is null or claimed_until <= $2)
  and endpoint_id not in (select json_array_elements_text($3::json))
limit 1;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

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

-- keepProbeDue
update "webhook_deliveries" set "next_attempt_at" = $1, "updated_at" = $2 where "next_attempt_at" > $3 and "id" = (select "earliest"."id" from "webhook_deliveries" as "earliest" where "earliest"."status" = 'pending' and "earliest"."endpoint_id" = $4 order by "earliest"."next_attempt_at", "earliest"."id" limit $5);
-- values: [1773230460000,1773230400000,1773230460000,"endpoint-1",1]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = $1, "claimed_by" = $2 where "id" in ($3) and "claimed_by" = $4;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = 'pending';
-- values: []
