-- insertErasure
insert into "erasures" ("id", "ran_at", "changes") values (+?, +?, +?);
-- values: ["erasure-1",1773230400000,"{}"]
