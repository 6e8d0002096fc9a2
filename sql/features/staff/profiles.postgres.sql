-- findStaffByChatUser
-- named statement findStaffByChatUser (named.postgres.sql)
-- values: ["workspace-1","chat-user-1"]

-- findStaffByGameUser
-- named statement findStaffByGameUser (named.postgres.sql)
-- values: ["workspace-1","1001"]

-- findStaffProfiles
-- named statement findStaffProfiles (named.postgres.sql)
-- values: ["[\"staff-1\",\"staff-2\"]"]
