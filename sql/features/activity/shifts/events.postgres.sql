-- recordShiftEvents (one shift)
select e.id, e.workspace_id, e.events, s.display_name, s.game_user_id
from webhook_endpoints as e
join staff as s on s.id = $1
where e.workspace_id = $2 and e.enabled = 1;
-- values: ["staff-1","workspace-1"]

-- recordShiftEvents (several shifts)
select id, workspace_id, events from webhook_endpoints
where workspace_id = any(array(select json_array_elements_text($1::json))) and enabled = 1;
-- values: ["[\"workspace-1\",\"workspace-2\"]"]
