-- findWebhookSecret
select "webhook_secret" from "roblox_settings" where "workspace_id" = +?;
-- values: ["workspace-1"]

-- findErasureRequest
select "status", "received_at" from "roblox_erasure_requests" where "workspace_id" = +? and "notification_id" = +?;
-- values: ["workspace-1","notification-1"]

-- insertErasureRequest
insert into "roblox_erasure_requests" ("workspace_id", "notification_id", "event_type", "status", "counts", "received_at", "completed_at") values (+?, +?, +?, +?, +?, +?, +?) on conflict ("workspace_id", "notification_id") do nothing;
-- values: ["workspace-1","notification-1","RightToErasureRequest","erased","{\"staff\":1}",1773230400000,1773230400000]
