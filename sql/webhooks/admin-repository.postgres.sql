-- recentDeliveries (every status)
select "d".*, "e"."type" as "event_type" from "webhook_deliveries" as "d" inner join "webhook_events" as "e" on "e"."id" = "d"."event_id" where "d"."workspace_id" = $1 order by "d"."created_at" desc, "d"."id" desc limit $2;
-- values: ["workspace-1",50]

-- recentDeliveries (one status)
select "d".*, "e"."type" as "event_type" from "webhook_deliveries" as "d" inner join "webhook_events" as "e" on "e"."id" = "d"."event_id" where "d"."workspace_id" = $1 and "d"."status" = $2 order by "d"."created_at" desc, "d"."id" desc limit $3;
-- values: ["workspace-1","failed",50]

-- findEvent
select "id", "workspace_id" from "webhook_events" where "id" = $1;
-- values: ["event-1"]

-- endpointInWorkspace
select "id" from "webhook_endpoints" where "id" = $1 and "workspace_id" = $2;
-- values: ["endpoint-1","workspace-1"]

-- insertDeliveryUnlessExists
insert into "webhook_deliveries" ("id", "event_id", "endpoint_id", "workspace_id", "status", "attempts", "next_attempt_at", "expires_at", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) on conflict ("event_id", "endpoint_id") do nothing;
-- values: ["delivery-1","event-1","endpoint-1","workspace-1","pending",0,1773230400000,1773316800000,1773230400000,1773230400000]

-- resetDeliveries (every endpoint)
update "webhook_deliveries" set "status" = $1, "next_attempt_at" = $2, "expires_at" = $3, "claimed_until" = $4, "claimed_by" = $5, "updated_at" = $6 where "event_id" = $7 returning "id", "endpoint_id";
-- values: ["pending",1773230400000,1773316800000,null,null,1773230400000,"event-1"]

-- resetDeliveries (one endpoint)
update "webhook_deliveries" set "status" = $1, "next_attempt_at" = $2, "expires_at" = $3, "claimed_until" = $4, "claimed_by" = $5, "updated_at" = $6 where "event_id" = $7 and "endpoint_id" = $8 returning "id", "endpoint_id";
-- values: ["pending",1773230400000,1773316800000,null,null,1773230400000,"event-1","endpoint-1"]
