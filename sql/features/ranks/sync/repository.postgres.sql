-- claimDueChanges
select c.id from rank_changes as c where c.sync_status = 'pending' and c.next_attempt_at <= $1
  and (c.claimed_until is null or c.claimed_until <= $2)
  and not exists (select 1 from rank_changes as e where e.staff_id = c.staff_id and e.sync_status = 'pending' and e.id < c.id) limit 1;
-- values: [1773230400000,1773230400000]

-- recordSyncOutcome
update "rank_changes" set "sync_status" = $1, "attempts" = $2, "last_error" = $3, "applied_at" = $4, "next_attempt_at" = $5, "claimed_until" = $6, "claimed_by" = $7, "updated_at" = $8 where "id" = $9 and "claimed_by" = $10 and "sync_status" = $11;
-- values: ["applied",1,null,1773230400000,1773230400000,null,null,1773230400000,"change-1","rank_sync_1","pending"]

-- releaseChanges
update "rank_changes" set "claimed_until" = $1, "claimed_by" = $2 where "id" in ($3) and "claimed_by" = $4;
-- values: [null,null,"change-1","rank_sync_1"]

-- syncBacklog
select "sync_status", count(*) as "count" from "rank_changes" where "sync_status" in ($1, $2) group by "sync_status";
-- values: ["pending","failed"]

-- failPendingChanges
update "rank_changes" set "sync_status" = $1, "last_error" = $2, "claimed_until" = $3, "claimed_by" = $4, "updated_at" = $5 where "staff_id" in ($6) and "sync_status" = $7 returning "id";
-- values: ["failed","{\"status\":null,\"code\":\"erased\",\"message\":\"erased\"}",null,null,1773230400000,"staff-1","pending"]
