-- insertKeyUnlessExists
insert into "api_keys" ("id", "application_id", "environment", "key_hash", "scopes", "revoked", "expires_at", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8) on conflict ("id") do nothing returning "id";
-- values: ["key-1","application-1","test","key-hash","[\"activity:write\"]",0,null,1773230400000]

-- updateKey (scopes only)
update "api_keys" set "scopes" = $1 where "id" = $2;
-- values: ["[\"activity:read\"]","key-1"]

-- updateKey (scopes, revoked and expiry)
update "api_keys" set "scopes" = $1, "revoked" = $2, "expires_at" = $3 where "id" = $4;
-- values: ["[\"activity:read\"]",1,1773230400000,"key-1"]
