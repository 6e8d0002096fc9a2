-- writeOutcome
update "rank_changes" set "sync_status" = $1, "attempts" = $2, "last_error" = $3, "applied_at" = $4, "next_attempt_at" = $5, "claimed_until" = $6, "claimed_by" = $7, "updated_at" = $8 where "id" = $9 and "claimed_by" = $10 and "sync_status" = $11;
-- values: ["failed",1,"{\"status\":403,\"code\":\"PERMISSION_DENIED\",\"message\":\"denied\"}",null,1773230400000,null,null,1773230400000,"change-1","rank_sync_1","pending"]
