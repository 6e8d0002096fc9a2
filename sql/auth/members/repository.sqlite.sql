-- findMemberships
select workspace_id, permissions from members where user_id = +?;
-- values: ["user-1"]
