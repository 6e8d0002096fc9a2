-- takeKey
-- named statement takeIdempotencyKey (named.postgres.sql)
-- values: ["app:application-1:test","idempotency-key-1"]

-- storeResult
-- named statement storeIdempotentResult (named.postgres.sql)
-- values: ["app:application-1:test","idempotency-key-1","fingerprint",200,"{\"data\":{}}","req_0000000000000000",1773230400000,1773144000000]

-- purgeExpiredRecords

      delete from idempotency_records where (scope, key) in (
        select scope, key from idempotency_records where created_at < $1 order by created_at limit $2);
-- values: [1773144000000,1000]
