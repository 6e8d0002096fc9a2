-- writeOutcome
update "rank_changes" set "sync_status" = +?, "attempts" = +?, "last_error" = +?, "applied_at" = +?, "next_attempt_at" = +?, "claimed_until" = +?, "claimed_by" = +?, "updated_at" = +? where "id" = +? and "claimed_by" = +? and "sync_status" = +?;
-- values: ["failed",1,"{\"status\":403,\"code\":\"PERMISSION_DENIED\",\"message\":\"denied\"}",null,1773230400000,null,null,1773230400000,"change-1","rank_sync_1","pending"]
