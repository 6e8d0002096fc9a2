-- findSigningKey
select "secret" from "gateway_signing_key" where "id" = $1;
-- values: [1]

-- insertSigningKeyIfAbsent
insert into "gateway_signing_key" ("id", "secret", "created_at") values ($1, $2, $3) on conflict ("id") do nothing;
-- values: [1,"c2lnbmluZy1rZXk",1773230400000]
