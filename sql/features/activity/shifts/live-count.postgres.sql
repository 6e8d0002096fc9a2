-- createLiveShiftCounter
select "environment", count(*) as "n" from "shifts" where (status = 'active' and last_seen_at >= $1) group by "environment";
-- values: [1773230100000]
