-- findWorkspace
-- named statement findWorkspace (named.sqlite.sql)
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + ? where "id" in (?);
-- values: [1,"workspace-1"]
