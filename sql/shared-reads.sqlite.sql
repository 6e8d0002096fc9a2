-- findWorkspace
-- named statement findWorkspace (named.sqlite.sql)
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + ? where "id" in (?);
-- values: [1,"workspace-1"]

-- findStaffByChatUser
-- named statement findStaffByChatUser (named.sqlite.sql)
-- values: ["workspace-1","chat-user-1"]

-- findStaffByGameUser
-- named statement findStaffByGameUser (named.sqlite.sql)
-- values: ["workspace-1","1001"]

-- findStaffProfiles
select "s"."id", "s"."workspace_id", "s"."display_name", "s"."game_user_id", "s"."game_username", "s"."chat_user_id", "s"."rank", "s"."status", "s"."weekly_required_minutes", "d"."id" as "department_id", "d"."name" as "department_name", "d"."weekly_required_minutes" as "department_weekly_required_minutes" from "staff" as "s" left join "departments" as "d" on "d"."id" = "s"."department_id" where "s"."id" in (?, ?);
-- values: ["staff-1","staff-2"]
