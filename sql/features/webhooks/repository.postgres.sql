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

-- keepProbeDue
update "webhook_deliveries" set "next_attempt_at" = $1, "updated_at" = $2 where "next_attempt_at" > $3 and "id" = (select "earliest"."id" from "webhook_deliveries" as "earliest" where "earliest"."status" = $4 and "earliest"."endpoint_id" = $5 order by "earliest"."next_attempt_at", "earliest"."id" limit $6);
-- values: [1773230460000,1773230400000,1773230460000,"pending","endpoint-1",1]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = $1, "claimed_by" = $2 where "id" in ($3) and "claimed_by" = $4;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = $1;
-- values: ["pending"]
