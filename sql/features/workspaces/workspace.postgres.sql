-- findWorkspace
select * from workspaces where id = $1;
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + $1 where "id" in ($2);
-- values: [1,"workspace-1"]
