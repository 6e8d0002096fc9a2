-- recordTotalsChange
insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
select value ->> 'workspace_id', value ->> 'environment', value ->> 'grain', value ->> 'bucket_start', value ->> 'staff_id', value ->> 'worked_ms', value ->> 'started_shifts', value ->> 'carried_shifts'
from json_each(+?)
where true
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts;
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"grain\":\"day\",\"bucket_start\":1773187200000,\"staff_id\":\"staff-1\",\"worked_ms\":3600000,\"started_shifts\":1,\"carried_shifts\":0}]"]
insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
select value ->> 'workspace_id', value ->> 'environment', value ->> 'longest_shift_ms'
from json_each(+?)
where true
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms;
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"longest_shift_ms\":3600000}]"]
insert into activity_changes (workspace_id, version, staff_id)
select value ->> 'workspace_id', value ->> 'version', value ->> 'staff_id'
from json_each(+?);
-- values: ["[{\"workspace_id\":\"workspace-1\",\"version\":64,\"staff_id\":\"staff-1\"}]"]
delete from "activity_changes" where "workspace_id" = +? and "version" <= +?;
-- values: ["workspace-1",-4032]

-- findChanges
select "version", "staff_id" from "activity_changes" where "workspace_id" = +? and "version" > +? and "version" <= +?;
-- values: ["workspace-1",10,12]

-- addToTotals (taking shifts out)
insert into activity_totals
  (workspace_id, environment, grain, bucket_start, staff_id, worked_ms, started_shifts, carried_shifts)
select value ->> 'workspace_id', value ->> 'environment', value ->> 'grain', value ->> 'bucket_start', value ->> 'staff_id', value ->> 'worked_ms', value ->> 'started_shifts', value ->> 'carried_shifts'
from json_each(+?)
where true
on conflict (workspace_id, environment, grain, bucket_start, staff_id) do update set
  worked_ms = activity_totals.worked_ms + excluded.worked_ms,
  started_shifts = activity_totals.started_shifts + excluded.started_shifts,
  carried_shifts = activity_totals.carried_shifts + excluded.carried_shifts;
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"grain\":\"day\",\"bucket_start\":1773187200000,\"staff_id\":\"staff-1\",\"worked_ms\":-3600000,\"started_shifts\":-1,\"carried_shifts\":0}]"]
delete from "activity_totals" where "workspace_id" in (+?) and "worked_ms" = +? and "started_shifts" = +? and "carried_shifts" = +?;
-- values: ["workspace-1",0,0,0]

-- raiseLongestShift
insert into activity_totals_extent (workspace_id, environment, longest_shift_ms)
select value ->> 'workspace_id', value ->> 'environment', value ->> 'longest_shift_ms'
from json_each(+?)
where true
on conflict (workspace_id, environment) do update set longest_shift_ms = excluded.longest_shift_ms
where activity_totals_extent.longest_shift_ms < excluded.longest_shift_ms;
-- values: ["[{\"workspace_id\":\"workspace-1\",\"environment\":\"test\",\"longest_shift_ms\":3600000}]"]

-- clearTotals (a workspace)
delete from "activity_totals_extent" where "workspace_id" = +?;
-- values: ["workspace-1"]
delete from "activity_totals" where "workspace_id" = +?;
-- values: ["workspace-1"]

-- clearTotals (some staff)
delete from "activity_totals" where "workspace_id" = +? and "staff_id" in (+?);
-- values: ["workspace-1","staff-1"]

-- findWorkspaceId
select "id" from "workspaces" where "id" = +?;
-- values: ["workspace-1"]

-- listWorkspaceIds
select "id" from "workspaces" order by "id";
-- values: []

-- staffIdsAfter
select "id" from "staff" where "workspace_id" = +? and "id" > +? order by "id" limit +?;
-- values: ["workspace-1","staff-1",100]

-- completedShiftsOf
select "workspace_id", "environment", "staff_id", "started_at", "ended_at" from "shifts" where "staff_id" in (+?) and "workspace_id" = +? and "status" = 'completed' and "ended_at" is not null;
-- values: ["staff-1","workspace-1"]

-- readStaffWorked
select src, staff_id, id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id from (select 0 as src, staff_id, cast(null as text) as id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, cast(null as text) as status, cast(null as bigint) as started_at, cast(null as bigint) as ended_at, cast(null as bigint) as last_heartbeat_at, cast(null as bigint) as last_seen_at, cast(null as text) as universe_id, cast(null as text) as place_id, cast(null as text) as server_id
      from activity_totals where staff_id = +? and environment = +? and workspace_id = +? and ((grain = +? and bucket_start >= +? and bucket_start < +?)) union all select 1 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id = +? and environment = +? and workspace_id = +? and ended_at is null and status = 'active' union all select 2 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id = +? and environment = +? and workspace_id = +? and status = 'completed'
      and ended_at >= +? and ended_at <= +? + (select coalesce(max(longest_shift_ms), 0) from activity_totals_extent where environment = +? and workspace_id = +?) and started_at < +?) as worked;
-- values: ["staff-1","test","workspace-1","week",1772625600000,1773230400000,"staff-1","test","workspace-1","staff-1","test","workspace-1",1773223200000,1773230400000,"test","workspace-1",1773230400000]

-- readWorkspaceWorked
select src, staff_id, id, grain, bucket_start, worked_ms, started_shifts, carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id from (select 0 as src, staff_id, cast(null as text) as id, grain, cast(+? as bigint) as bucket_start, sum(worked_ms) as worked_ms,
              sum(started_shifts) + sum(case when bucket_start = +? then carried_shifts else 0 end) as started_shifts,
              0 as carried_shifts, cast(null as text) as status, cast(null as bigint) as started_at, cast(null as bigint) as ended_at, cast(null as bigint) as last_heartbeat_at, cast(null as bigint) as last_seen_at, cast(null as text) as universe_id, cast(null as text) as place_id, cast(null as text) as server_id
            from activity_totals where staff_id in (+?, +?) and environment = +? and workspace_id = +? and grain = +?
              and bucket_start >= +? and bucket_start < +?
            group by staff_id, grain union all select 1 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id in (+?, +?) and environment = +? and workspace_id = +? and (status = 'active' and last_seen_at < +?) and started_at < +?
      and last_heartbeat_at >= +? union all select 2 as src, staff_id, id, cast(null as text) as grain, cast(null as bigint) as bucket_start, cast(null as bigint) as worked_ms, cast(null as bigint) as started_shifts, cast(null as bigint) as carried_shifts, status, started_at, ended_at, last_heartbeat_at, last_seen_at, universe_id, place_id, server_id
    from shifts where staff_id in (+?, +?) and environment = +? and workspace_id = +? and status = 'completed'
      and ended_at >= +? and ended_at <= +? + (select coalesce(max(longest_shift_ms), 0) from activity_totals_extent where environment = +? and workspace_id = +?) and started_at < +?) as worked;
-- values: [1772625600000,1772625600000,"staff-1","staff-2","test","workspace-1","day",1772625600000,1773144000000,"staff-1","staff-2","test","workspace-1",1773230100000,1773230400000,1772618400000,"staff-1","staff-2","test","workspace-1",1772618400000,1772625600000,"test","workspace-1",1772625600000]
