-- claimDueDeliveries
-- named statement findDueDelivery (named.sqlite.sql)
-- values: [1773230400000,1773230400000,"[\"endpoint-1\"]"]

-- recordAttempts
-- named statement insertWebhookAttempts (named.sqlite.sql)
-- values: ["[{\"id\":\"<uuid>\",\"delivery_id\":\"delivery-1\",\"attempt\":1,\"started_at\":1773230400000,\"duration_ms\":120,\"status\":200,\"error\":null,\"response_excerpt\":\"ok\"}]"]
-- named statement recordDeliveryResults (named.sqlite.sql)
-- values: ["[{\"id\":\"delivery-1\",\"owner\":\"instance-1\",\"outcome\":\"delivered\",\"attempt\":1,\"next_attempt_at\":1773230400000,\"status\":200,\"duration_ms\":120,\"excerpt\":\"ok\",\"error\":null,\"finished_at\":1773230400120,\"delivered_at\":1773230400120}]"]

-- bringDeliveriesForward
update "webhook_deliveries" set "next_attempt_at" = ?, "updated_at" = ? where "status" = ? and "next_attempt_at" > ? and "endpoint_id" in (?, ?);
-- values: [1773230400000,1773230400000,"pending",1773230400000,"endpoint-1","endpoint-2"]

-- keepProbeDue
update "webhook_deliveries" set "next_attempt_at" = ?, "updated_at" = ? where "next_attempt_at" > ? and "id" = (select "earliest"."id" from "webhook_deliveries" as "earliest" where "earliest"."status" = ? and "earliest"."endpoint_id" = ? order by "earliest"."next_attempt_at", "earliest"."id" limit ?);
-- values: [1773230460000,1773230400000,1773230460000,"pending","endpoint-1",1]

-- releaseClaims
update "webhook_deliveries" set "claimed_until" = ?, "claimed_by" = ? where "id" in (?) and "claimed_by" = ?;
-- values: [null,null,"delivery-1","instance-1"]

-- pendingBacklog
select count(*) as "pending", min("created_at") as "oldest" from "webhook_deliveries" where "status" = ?;
-- values: ["pending"]
