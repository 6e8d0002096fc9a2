-- findWorkspace
select * from workspaces where id = $1;
-- values: ["workspace-1"]
select *, exists (
      select 1 from api_keys as k
      join applications as a on a.id = k.application_id
      where k.key_hash = $1 and k.id = $2 and k.environment = $3 and k.scopes = $4
        and a.id = $5 and a.name = $6 and a.workspace_id = $7
        and a.features = $8 and a.allowed_universe_ids = $9
        and k.revoked = 0 and (k.expires_at is null or k.expires_at > $10) and a.approved = 1) as holds from workspaces where id = $11;
-- values: ["key-hash","key-1","test","[\"activity:write\"]","application-1","Game","workspace-1","{\"activity\":true}","[\"42\"]",1773230400000,"workspace-1"]

-- callerWorkspace
select * from workspaces where id = $1;
-- values: ["workspace-1"]

-- bumpActivityVersion
update "workspaces" set "activity_version" = "activity_version" + $1 where "id" in ($2);
-- values: [1,"workspace-1"]
