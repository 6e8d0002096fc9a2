-- findCommandCopies (everywhere)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in (+?) or "payload" like +?) order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%"]

-- findCommandCopies (inWorkspace)
select "id", "submission_id", "payload" from "commands" where ("submission_id" in (+?) or "payload" like +?) and "workspace_id" = +? order by "id";
-- values: ["submission-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- findEventCopies (everywhere)
select "id", "command_id", "payload" from "events" where ("command_id" in (+?) or "payload" like +?) order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%"]

-- findEventCopies (inWorkspace)
select "id", "command_id", "payload" from "events" where ("command_id" in (+?) or "payload" like +?) and "workspace_id" = +? order by "id";
-- values: ["command-1","%\"gameUserId\":\"1001\"%","workspace-1"]

-- setCommandPayload
update "commands" set "payload" = +? where "id" = +?;
-- values: ["{}","command-1"]

-- setEventPayload
update "events" set "payload" = +? where "id" = +?;
-- values: ["{}","event-1"]

-- deleteEventsBefore
delete from events where id in (
  select e.id from events as e where e.created_at < +? order by e.created_at limit +?);
-- values: [1757678400000,500]

-- deleteCommandsBefore
delete from commands where id in (
  select c.id from commands as c
  where c.created_at < +?
    and not exists (select 1 from events as e where e.command_id = c.id)
  order by c.created_at limit +?);
-- values: [1757678400000,500]
