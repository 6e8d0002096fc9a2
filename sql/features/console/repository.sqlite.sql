-- insertSignInCode
insert into "console_sign_in_codes" ("code_hash", "user_id", "created_at", "expires_at", "used_at") values (+?, +?, +?, +?, +?);
-- values: ["code-hash","user-1",1773230400000,1773231000000,null]

-- consumeSignInCode
update "console_sign_in_codes" set "used_at" = +? where "code_hash" = +? and "used_at" is null and "expires_at" > +? returning "user_id";
-- values: [1773230400000,"code-hash",1773230400000]

-- findMemberByChatUser
select "user_id" from "members" where "workspace_id" = +? and "chat_user_id" = +? order by "user_id" limit +?;
-- values: ["workspace-1","5551",1]

-- findMemberWorkspaces
select "w"."id", "w"."name", "w"."timezone", "w"."create_staff_profile_on_accept", "m"."permissions" from "members" as "m" inner join "workspaces" as "w" on "w"."id" = "m"."workspace_id" where "m"."user_id" = +? order by "w"."name", "w"."id";
-- values: ["user-1"]
