-- recordShiftEvents (one shift)
-- named statement findEndpointsWithStaff (named.postgres.sql)
-- values: ["staff-1","workspace-1"]

-- recordShiftEvents (several shifts)
-- named statement findEnabledEndpoints (named.postgres.sql)
-- values: ["[\"workspace-1\",\"workspace-2\"]"]
