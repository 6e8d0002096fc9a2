-- findCommandCopies (everywhere)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in ($1) or "payload" like $2) order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%"]

-- findCommandCopies (inWorkspace)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in ($1) or "payload" like $2) and "workspace_id" = $3 order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- findEventCopies (everywhere)
select "id", "command_id", "payload" from "events" where ("command_id" in ($1) or "payload" like $2) order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%"]

-- findEventCopies (inWorkspace)
select "id", "command_id", "payload" from "events" where ("command_id" in ($1) or "payload" like $2) and "workspace_id" = $3 order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- setCommandPayload
update "commands" set "payload" = $1 where "id" = $2;
-- values: ["{}","command-1"]

-- setEventPayload
update "events" set "payload" = $1 where "id" = $2;
-- values: ["{}","event-1"]

-- deleteEventsBefore
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
delete from events where id in (
  select e.id from events as e where e.created_at < $1 order by e.created_at limit $2
for update skip locked);
-- values: [1757678400000,500]

-- deleteCommandsBefore
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
delete from commands where id in (
  select c.id from commands as c
  where c.created_at < $1
    and not exists (select 1 from events as e where e.command_id = c.id)
  order by c.created_at limit $2
for update skip locked);
-- values: [1757678400000,500]
