-- findSubscribers
-- named statement findEnabledEndpoints (named.sqlite.sql)
-- values: ["[\"workspace-1\"]"]

-- writeWebhookEvents
-- named statement insertWebhookEvents (named.sqlite.sql)
-- values: ["[{\"id\":\"event-1\",\"workspace_id\":\"workspace-1\",\"type\":\"activity.shift.ended\",\"environment\":\"test\",\"body\":\"{\\\"id\\\":\\\"event-1\\\",\\\"type\\\":\\\"activity.shift.ended\\\",\\\"createdAt\\\":\\\"2026-03-11T12:00:00.000Z\\\",\\\"workspaceId\\\":\\\"workspace-1\\\",\\\"environment\\\":\\\"test\\\",\\\"data\\\":{\\\"shift\\\":{\\\"id\\\":\\\"shift-1\\\"}}}\",\"created_at\":1773230400000}]"]
-- named statement insertWebhookDeliveries (named.sqlite.sql)
-- values: ["[{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-1\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000},{\"id\":\"<uuid>\",\"event_id\":\"event-1\",\"endpoint_id\":\"endpoint-2\",\"workspace_id\":\"workspace-1\",\"next_attempt_at\":1773230400000,\"expires_at\":1773316800000,\"created_at\":1773230400000,\"updated_at\":1773230400000}]"]

-- enqueueWebhookEvent
-- named statement findEnabledEndpoints (named.sqlite.sql)
-- values: ["[\"workspace-1\"]"]
