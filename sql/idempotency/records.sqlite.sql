-- takeKey
-- named statement takeIdempotencyKey (named.sqlite.sql)
-- values: ["app:application-1:test","idempotency-key-1"]

-- storeResult
-- named statement storeIdempotentResult (named.sqlite.sql)
-- values: ["app:application-1:test","idempotency-key-1","fingerprint",200,"{\"data\":{}}","req_0000000000000000",1773230400000,1773144000000]

-- purgeExpiredRecords

      delete from idempotency_records where (scope, key) in (
        select scope, key from idempotency_records where created_at < ? order by created_at limit ?);
-- values: [1773144000000,1000]
