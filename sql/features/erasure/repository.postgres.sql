-- insertErasure
insert into "erasures" ("id", "ran_at", "changes") values ($1, $2, $3);
-- values: ["erasure-1",1773230400000,"{}"]
