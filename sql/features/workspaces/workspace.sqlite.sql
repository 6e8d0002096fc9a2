-- findWorkspace
select * from workspaces where id = +?;
-- values: ["workspace-1"]
select *, exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = +? and k.id = +? and k.environment = +? and k.scopes = +?
        and a.id = +? and a.name = +? and a.workspace_id = +?
        and a.features = +? and a.allowed_universe_ids = +?
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > +?) and a.approved = 1) as holds from workspaces where id = +?;
-- values: ["key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"workspace-1"]

-- callerWorkspace
select * from workspaces where id = +?;
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + +? where "id" in (+?);
-- values: [1,"workspace-1"]
