-- recentDeliveries (every status)
select "d".*, "e"."type" as "event_type" from "webhook_deliveries" as "d" inner join "webhook_events" as "e" on "e"."id" = "d"."event_id" where "d"."workspace_id" = +? order by "d"."created_at" desc, "d"."id" desc limit +?;
-- values: ["workspace-1",50]

-- recentDeliveries (one status)
select "d".*, "e"."type" as "event_type" from "webhook_deliveries" as "d" inner join "webhook_events" as "e" on "e"."id" = "d"."event_id" where "d"."workspace_id" = +? and "d"."status" = +? order by "d"."created_at" desc, "d"."id" desc limit +?;
-- values: ["workspace-1","failed",50]

-- findEvent
select "id", "workspace_id" from "webhook_events" where "id" = +?;
-- values: ["event-1"]

-- endpointInWorkspace
select "id" from "webhook_endpoints" where "id" = +? and "workspace_id" = +?;
-- values: ["endpoint-1","workspace-1"]

-- insertDeliveryUnlessExists
insert into "webhook_deliveries" ("id", "event_id", "endpoint_id", "workspace_id", "status", "attempts", "next_attempt_at", "expires_at", "created_at", "updated_at") values (+?, +?, +?, +?, +?, +?, +?, +?, +?, +?) on conflict ("event_id", "endpoint_id") do nothing;
-- values: ["delivery-1","event-1","endpoint-1","workspace-1","pending",0,1773230400000,1773316800000,1773230400000,1773230400000]

-- resetDeliveries (every endpoint)
update "webhook_deliveries" set "status" = +?, "next_attempt_at" = +?, "expires_at" = +?, "claimed_until" = +?, "claimed_by" = +?, "updated_at" = +? where "event_id" = +? returning "id", "endpoint_id";
-- values: ["pending",1773230400000,1773316800000,null,null,1773230400000,"event-1"]

-- resetDeliveries (one endpoint)
update "webhook_deliveries" set "status" = +?, "next_attempt_at" = +?, "expires_at" = +?, "claimed_until" = +?, "claimed_by" = +?, "updated_at" = +? where "event_id" = +? and "endpoint_id" = +? returning "id", "endpoint_id";
-- values: ["pending",1773230400000,1773316800000,null,null,1773230400000,"event-1","endpoint-1"]
