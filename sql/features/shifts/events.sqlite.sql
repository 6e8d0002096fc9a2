-- recordShiftEvents (one shift)
-- named statement findEndpointsWithStaff (named.sqlite.sql)
-- values: ["staff-1","workspace-1"]

-- recordShiftEvents (several shifts)
-- named statement findEnabledEndpoints (named.sqlite.sql)
-- values: ["[\"workspace-1\",\"workspace-2\"]"]
