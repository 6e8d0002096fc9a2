-- recordTotalsChange
with write_0 as (
insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
select workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts
from json_to_recordset($1::json) as r(workspace_id text, environment text, grain text, bucket_start bigint, staff_id text, worked_ms bigint, started_shifts integer, carried_shifts integer)
where true
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts
),
write_1 as (
insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
select workspace_id, environment, longest_shift_ms
from json_to_recordset($2::json) as r(workspace_id text, environment text, longest_shift_ms bigint)
where true
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms
)
insert into activity_changes (workspace_id, version, staff_id)
select workspace_id, version, staff_id
from json_to_recordset($3::json) as r(workspace_id text, version bigint, staff_id text);
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"grain\":\"day\",\"bucket_start\":1773187200000,\"staff_id\":\"staff-1\",\"worked_ms\":3600000,\"started_shifts\":1,\"carried_shifts\":0}]","[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"longest_shift_ms\":3600000}]","[{\"workspace_id\":\"workspace-1\",\"version\":64,\"staff_id\":\"staff-1\"}]"]
delete from "activity_changes" where "workspace_id" = $1 and "version" <= $2;
-- values: ["workspace-1",-4032]

-- findChanges
select "version", "staff_id" from "activity_changes" where "workspace_id" = $1 and "version" > $2 and "version" <= $3;
-- values: ["workspace-1",10,12]

-- addToTotals (taking shifts out)
insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
select workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts
from json_to_recordset($1::json) as r(workspace_id text, environment text, grain text, bucket_start bigint, staff_id text, worked_ms bigint, started_shifts integer, carried_shifts integer)
where true
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts;
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"grain\":\"day\",\"bucket_start\":1773187200000,\"staff_id\":\"staff-1\",\"worked_ms\":-3600000,\"started_shifts\":-1,\"carried_shifts\":0}]"]
delete from "activity_totals" where "workspace_id" in ($1) and "worked_ms" = $2 and "started_shifts" = $3 and "carried_shifts" = $4;
-- values: ["workspace-1",0,0,0]

-- raiseLongestShift
insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
select workspace_id, environment, longest_shift_ms
from json_to_recordset($1::json) as r(workspace_id text, environment text, longest_shift_ms bigint)
where true
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms;
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"longest_shift_ms\":3600000}]"]

-- clearTotals (a workspace)
delete from "activity_totals_extent" where "workspace_id" = $1;
-- values: ["workspace-1"]
delete from "activity_totals" where "workspace_id" = $1;
-- values: ["workspace-1"]

-- clearTotals (some staff)
delete from "activity_totals" where "workspace_id" = $1 and "staff_id" in ($2);
-- values: ["workspace-1","staff-1"]

-- findWorkspaceId
select "id" from "workspaces" where "id" = $1;
-- values: ["workspace-1"]

-- listWorkspaceIds
select "id" from "workspaces" order by "id";
-- values: []

-- staffIdsAfter
select "id" from "staff" where "workspace_id" = $1 and "id" > $2 order by "id" limit $3;
-- values: ["workspace-1","staff-1",100]

-- completedShiftsOf
select "workspace_id", "environment", "staff_id", "started_at", "ended_at" from "shifts" where "staff_id" in ($1) and "workspace_id" = $2 and "status" = 'completed' and "ended_at" is not null;
-- values: ["staff-1","workspace-1"]

-- readStaffWorked
select src, staff_id, id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id from (select 0 as src, staff_id, cast(null as text) as id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, cast(null as text) as status, cast(null as bigint) as started_at, cast(null as bigint) as ended_at, cast(null as bigint) as last_heartbeat_at, cast(null as bigint) as last_seen_at, cast(null as text) as universe_id, cast(null as text) as place_id, cast(null as text) as server_id
      from activity_totals where staff_id = $1 and environment = $2 and workspace_id = $3 and ((grain = $4 and bucket_start >= $5 and bucket_start < $6)) union all select 1 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id = $7 and environment = $8 and workspace_id = $9 and ended_at is null and status = 'active' union all select 2 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id = $10 and environment = $11 and workspace_id = $12 and status = 'completed'
      and ended_at >= $13 and ended_at <= $14 + (select coalesce(max(longest_shift_ms), 0) from activity_totals_extent where environment = $15 and workspace_id = $16) and started_at < $17) as worked;
-- values: ["staff-1","test","workspace-1","week",1772625600000,1773230400000,"staff-1","test","workspace-1","staff-1","test","workspace-1",1773223200000,1773230400000,"test","workspace-1",1773230400000]

-- readWorkspaceWorked
select src, staff_id, id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id from (select 0 as src, staff_id, cast(null as text) as id, grain, cast($1 as bigint) as bucket_start, sum(worked_ms) as worked_ms,
              sum(started_shifts) + sum(case when bucket_start = $2 then carried_shifts else 0 end) as started_shifts,
              0 as carried_shifts, cast(null as text) as status, cast(null as bigint) as started_at, cast(null as bigint) as ended_at, cast(null as bigint) as last_heartbeat_at, cast(null as bigint) as last_seen_at, cast(null as text) as universe_id, cast(null as text) as place_id, cast(null as text) as server_id
            from activity_totals where staff_id in ($3, $4) and environment = $5 and workspace_id = $6 and grain = $7
              and bucket_start >= $8 and bucket_start < $9
            group by staff_id, grain union all select 1 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id in ($10, $11) and environment = $12 and workspace_id = $13 and (status = 'active' and last_seen_at < $14) and started_at < $15
      and last_heartbeat_at >= $16 union all select 2 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id in ($17, $18) and environment = $19 and workspace_id = $20 and status = 'completed'
      and ended_at >= $21 and ended_at <= $22 + (select coalesce(max(longest_shift_ms), 0) from activity_totals_extent where environment = $23 and workspace_id = $24) and started_at < $25) as worked;
-- values: [1772625600000,1772625600000,"staff-1","staff-2","test","workspace-1","day",1772625600000,1773144000000,"staff-1","staff-2","test","workspace-1",1773230100000,1773230400000,1772618400000,"staff-1","staff-2","test","workspace-1",1772618400000,1772625600000,"test","workspace-1",1772625600000]
