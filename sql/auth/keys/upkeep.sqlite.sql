-- insertKeyUnlessExists
insert into "api_keys" ("id", "application_id", "environment", "key_hash", "scopes", "revoked", "expires_at", "created_at") values (+?, +?, +?, +?, +?, +?, +?, +?) on conflict ("id") do nothing returning "id";
-- values: ["key-1","application-1","test","key-hash","[\"activity:write\"]",0,null,1773230400000]

-- updateKey (scopes only)
update "api_keys" set "scopes" = +? where "id" = +?;
-- values: ["[\"activity:read\"]","key-1"]

-- updateKey (scopes, revoked and expiry)
update "api_keys" set "scopes" = +?, "revoked" = +?, "expires_at" = +? where "id" = +?;
-- values: ["[\"activity:read\"]",1,1773230400000,"key-1"]
