-- claimDueChanges
select c.id from rank_changes as c where c.sync_status = 'pending' and c.next_attempt_at <= +?
  and (c.claimed_until is null or c.claimed_until <= +?)
  and not exists (select 1 from rank_changes as e where e.staff_id = c.staff_id and e.sync_status = 'pending' and e.id < c.id) limit 1;
-- values: [1773230400000,1773230400000]

-- recordSyncOutcome
update "rank_changes" set "sync_status" = +?, "attempts" = +?, "last_error" = +?, "applied_at" = +?, "next_attempt_at" = +?, "claimed_until" = +?, "claimed_by" = +?, "updated_at" = +? where "id" = +? and "claimed_by" = +? and "sync_status" = +?;
-- values: ["applied",1,null,1773230400000,1773230400000,null,null,1773230400000,"change-1","rank_sync_1","pending"]

-- releaseChanges
update "rank_changes" set "claimed_until" = +?, "claimed_by" = +? where "id" in (+?) and "claimed_by" = +?;
-- values: [null,null,"change-1","rank_sync_1"]

-- syncBacklog
select "sync_status", count(*) as "count" from "rank_changes" where "sync_status" in (+?, +?) group by "sync_status";
-- values: ["pending","failed"]

-- failPendingChanges
update "rank_changes" set "sync_status" = +?, "last_error" = +?, "claimed_until" = +?, "claimed_by" = +?, "updated_at" = +? where "staff_id" in (+?) and "sync_status" = +? returning "id";
-- values: ["failed","{\"status\":null,\"code\":\"erased\",\"message\":\"erased\"}",null,null,1773230400000,"staff-1","pending"]
