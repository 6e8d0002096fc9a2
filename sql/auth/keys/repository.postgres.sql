-- findKey
select "k"."id", "k"."application_id", "a"."workspace_id", "k"."environment", "k"."scopes", "k"."revoked", "k"."expires_at", "k"."created_at" from "api_keys" as "k" inner join "applications" as "a" on "a"."id" = "k"."application_id" where "k"."id" = $1;
-- values: ["key-1"]

-- listKeys (every key)
select "k"."id", "k"."application_id", "a"."workspace_id", "k"."environment", "k"."scopes", "k"."revoked", "k"."expires_at", "k"."created_at" from "api_keys" as "k" inner join "applications" as "a" on "a"."id" = "k"."application_id" order by "k"."created_at", "k"."id";
-- values: []

-- listKeys (of one application)
select "k"."id", "k"."application_id", "a"."workspace_id", "k"."environment", "k"."scopes", "k"."revoked", "k"."expires_at", "k"."created_at" from "api_keys" as "k" inner join "applications" as "a" on "a"."id" = "k"."application_id" where "k"."application_id" = $1 order by "k"."created_at", "k"."id";
-- values: ["application-1"]

-- findApplication
select "id", "workspace_id" from "applications" where "id" = $1;
-- values: ["application-1"]

-- insertKey
insert into "api_keys" ("id", "application_id", "environment", "key_hash", "scopes", "revoked", "expires_at", "created_at") values ($1, $2, $3, $4, $5, $6, $7, $8);
-- values: ["key-1","application-1","test","key-hash","[\"activity:write\"]",0,null,1773230400000]

-- revokeKey
update "api_keys" set "revoked" = $1 where "id" = $2;
-- values: [1,"key-1"]

-- setKeyExpiry
update "api_keys" set "expires_at" = $1 where "id" = $2;
-- values: [1773316800000,"key-1"]
