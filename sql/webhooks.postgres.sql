-- findSubscribers
-- named statement findEnabledEndpoints (named.postgres.sql)
-- values: ["[\"workspace-1\"]"]

-- writeWebhookEvents
-- named statement insertWebhookEvents (named.postgres.sql)
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
-- named statement insertWebhookDeliveries (named.postgres.sql)
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000},{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-2\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]

-- claimDueDeliveries
-- named statement findDueDelivery (named.postgres.sql)
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

-- recordAttempts
-- named statement useOutboxIndexes (named.postgres.sql)
-- values: []
-- named statement insertWebhookAttempts (named.postgres.sql)
-- values: ["[{\"id\":\"<uuid>\",\"delivery_id\":\"delivery-1\",\"attempt\":1,\"started_at\":1773230400000,\"duration_ms\":120,\"status\":200,\"error\":null,\"response_excerpt\":\"ok\"}]"]
-- named statement recordDeliveryResults (named.postgres.sql)
-- values: ["[{\"id\":\"delivery-1\",\"owner\":\"instance-1\",\"outcome\":\"delivered\",\"attempt\":1,\"next_attempt_at\":1773230400000,\"status\":200,\"duration_ms\":120,\"excerpt\":\"ok\",\"error\":null,\"finished_at\":1773230400120,\"delivered_at\":1773230400120}]"]

-- bringDeliveriesForward
update "webhook_deliveries" set "next_attempt_at" = $1, "updated_at" = $2 where "status" = $3 and "next_attempt_at" > $4 and "endpoint_id" in ($5, $6);
-- values: [1773230400000,1773230400000,"pending",1773230400000,"endpoint-1","endpoint-2"]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = $1, "claimed_by" = $2 where "id" in ($3) and "claimed_by" = $4;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = $1;
-- values: ["pending"]
