-- deleteAttemptsBefore
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
delete from webhook_attempts where id in (
  select a.id from webhook_attempts as a
  where a.started_at < $1
    and not exists (select 1 from webhook_deliveries as d where d.id = a.delivery_id and d.status = 'pending')
  order by a.started_at limit $2
for update skip locked);
-- values: [1757678400000,500]

-- deleteDeliveriesBefore
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
delete from webhook_deliveries where status <> 'pending' and id in (
  select d.id from webhook_deliveries as d
  where d.status <> 'pending' and d.updated_at < $1
    and not exists (select 1 from webhook_attempts as a where a.delivery_id = d.id)
  order by d.updated_at limit $2
for update skip locked);
-- values: [1757678400000,500]

-- deleteWebhookEventsBefore
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
delete from webhook_events where id in (
  select e.id from webhook_events as e
  where e.created_at < $1
    and not exists (select 1 from webhook_deliveries as d where d.event_id = e.id)
  order by e.created_at limit $2
for update skip locked);
-- values: [1757678400000,500]

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

-- deleteSignInCodesBefore
select set_config('enable_sort', 'off', true) as sort, set_config('enable_seqscan', 'off', true) as seqscan,
  set_config('enable_hashjoin', 'off', true) as hashjoin, set_config('enable_mergejoin', 'off', true) as mergejoin;
-- values: []
delete from console_sign_in_codes where code_hash in (
  select c.code_hash from console_sign_in_codes as c where c.expires_at < $1 order by c.expires_at limit $2
for update skip locked);
-- values: [1757678400000,500]
