-- findStaffByChatUser
-- named statement findStaffByChatUser (named.sqlite.sql)
-- values: ["workspace-1","chat-user-1"]

-- findStaffByGameUser
-- named statement findStaffByGameUser (named.sqlite.sql)
-- values: ["workspace-1","1001"]

-- findStaffProfiles
-- named statement findStaffProfiles (named.sqlite.sql)
-- values: ["[\"staff-1\",\"staff-2\"]"]
