-- findSigningKey
select "secret" from "gateway_signing_key" where "id" = +?;
-- values: [1]

-- insertSigningKeyIfAbsent
insert into "gateway_signing_key" ("id", "secret", "created_at") values (+?, +?, +?) on conflict ("id") do nothing;
-- values: [1,"c2lnbmluZy1rZXk",1773230400000]
