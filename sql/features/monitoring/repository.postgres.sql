-- pingDatabase
select 1;
-- values: []
