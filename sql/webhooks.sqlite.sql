-- findSubscribers
-- named statement findEnabledEndpoints (named.sqlite.sql)
-- values: ["[\"workspace-1\"]"]

-- writeWebhookEvents
-- named statement insertWebhookEvents (named.sqlite.sql)
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
-- named statement insertWebhookDeliveries (named.sqlite.sql)
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000},{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-2\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]

-- claimDueDeliveries
-- named statement findDueDelivery (named.sqlite.sql)
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

-- recordAttempts
insert into "webhook_attempts" ("id", "delivery_id", "attempt", "started_at", "duration_ms", "status", "error", "response_excerpt") values (?, ?, ?, ?, ?, ?, ?, ?);
-- values: ["<uuid>","delivery-1",1,1773230400000,120,200,null,"ok"]
with results (id, owner, outcome, attempt, next_attempt_at, status, duration_ms, excerpt, error, finished_at, delivered_at)
      as (values (cast(? as text), cast(? as text), cast(? as text), cast(? as integer), cast(? as bigint), cast(? as integer), cast(? as integer), cast(? as text), cast(? as text), cast(? as bigint), cast(? as bigint)))
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
      from results
      where webhook_deliveries.id = results.id
        and webhook_deliveries.claimed_by = results.owner
        and webhook_deliveries.status = 'pending';
-- values: ["delivery-1","instance-1","delivered",1,1773230400000,200,120,"ok",null,1773230400120,1773230400120]

-- bringDeliveriesForward
update "webhook_deliveries" set "next_attempt_at" = ?, "updated_at" = ? where "status" = ? and "next_attempt_at" > ? and "endpoint_id" in (?, ?);
-- values: [1773230400000,1773230400000,"pending",1773230400000,"endpoint-1","endpoint-2"]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = ?, "claimed_by" = ? where "id" in (?) and "claimed_by" = ?;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = ?;
-- values: ["pending"]
