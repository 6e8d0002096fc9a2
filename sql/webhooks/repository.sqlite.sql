-- claimDueDeliveries
select id from webhook_deliveries
where status = 'pending' and next_attempt_at <= +? and (claimed_until is null or claimed_until <= +?)
  and endpoint_id not in (select value from json_each(+?))
limit 1;
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

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

-- keepProbeDue
update "webhook_deliveries" set "next_attempt_at" = +?, "updated_at" = +? where "next_attempt_at" > +? and "id" = (select "earliest"."id" from "webhook_deliveries" as "earliest" where "earliest"."status" = 'pending' and "earliest"."endpoint_id" = +? order by "earliest"."next_attempt_at", "earliest"."id" limit +?);
-- values: [1773230460000,1773230400000,1773230460000,"endpoint-1",1]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = +?, "claimed_by" = +? where "id" in (+?) and "claimed_by" = +?;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = 'pending';
-- values: []
