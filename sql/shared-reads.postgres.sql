-- findWorkspace
-- named statement findWorkspace (named.postgres.sql)
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + $1 where "id" in ($2);
-- values: [1,"workspace-1"]

-- findStaffByChatUser
-- named statement findStaffByChatUser (named.postgres.sql)
-- values: ["workspace-1","chat-user-1"]

-- findStaffByGameUser
-- named statement findStaffByGameUser (named.postgres.sql)
-- values: ["workspace-1","1001"]

-- findStaffProfiles
-- named statement findStaffProfiles (named.postgres.sql)
-- values: ["[\"staff-1\",\"staff-2\"]"]
