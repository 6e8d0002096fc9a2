-- findWebhookCopies (everywhere)
select "id", "body" from "webhook_events" where ("body" like +? or "body" like +?) order by "id";
-- values: ["%1001%","%submission-1%"]

-- findWebhookCopies (inWorkspace)
select "id", "body" from "webhook_events" where ("body" like +? or "body" like +?) and "workspace_id" = +? order by "id";
-- values: ["%1001%","%submission-1%","workspace-1"]

-- setWebhookBody
update "webhook_events" set "body" = +? where "id" = +?;
-- values: ["{}","event-1"]

-- findReceiverAnswers
select "id", "last_response", "last_error" from "webhook_deliveries" where "event_id" in (+?) order by "id";
-- values: ["event-1"]
select "a"."id", "a"."response_excerpt", "a"."error" from "webhook_attempts" as "a" inner join "webhook_deliveries" as "d" on "d"."id" = "a"."delivery_id" where "d"."event_id" in (+?) order by "a"."id";
-- values: ["event-1"]

-- clearDeliveryAnswer
update "webhook_deliveries" set "last_response" = +?, "last_error" = +? where "id" = +?;
-- values: [null,null,"delivery-1"]

-- clearAttemptAnswer
update "webhook_attempts" set "response_excerpt" = +?, "error" = +? where "id" = +?;
-- values: [null,null,"attempt-1"]

-- deleteAttemptsBefore
delete from webhook_attempts where id in (
  select a.id from webhook_attempts as a
  where a.started_at < +?
    and not exists (select 1 from webhook_deliveries as d where d.id = a.delivery_id and d.status = 'pending')
  order by a.started_at limit +?);
-- values: [1757678400000,500]

-- deleteDeliveriesBefore
delete from webhook_deliveries where status <> 'pending' and id in (
  select d.id from webhook_deliveries as d
  where d.status <> 'pending' and d.updated_at < +?
    and not exists (select 1 from webhook_attempts as a where a.delivery_id = d.id)
  order by d.updated_at limit +?);
-- values: [1757678400000,500]

-- deleteWebhookEventsBefore
delete from webhook_events where id in (
  select e.id from webhook_events as e
  where e.created_at < +?
    and not exists (select 1 from webhook_deliveries as d where d.event_id = e.id)
  order by e.created_at limit +?);
-- values: [1757678400000,500]
