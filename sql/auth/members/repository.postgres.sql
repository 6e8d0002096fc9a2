-- findMemberships
select workspace_id, permissions from members where user_id = $1;
-- values: ["user-1"]
