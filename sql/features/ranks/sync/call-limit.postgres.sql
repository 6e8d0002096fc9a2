-- takeCalls
insert into "roblox_call_windows" ("key_hash", "calls") values ($1, $2) on conflict ("key_hash") do update set "calls" = "roblox_call_windows"."calls" returning "calls";
-- values: ["8c284055dbb54b7f053a2dc612c3727c7aa36354361055f2110f4903ea8ee29c","[]"]
update "roblox_call_windows" set "calls" = $1 where "key_hash" = $2;
-- values: ["[1773230400000,1773230400000]","8c284055dbb54b7f053a2dc612c3727c7aa36354361055f2110f4903ea8ee29c"]
