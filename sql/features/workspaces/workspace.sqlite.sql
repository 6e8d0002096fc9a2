-- findWorkspace
select * from workspaces where id = +?;
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + +? where "id" in (+?);
-- values: [1,"workspace-1"]
