-- findResponseCopies
select "scope", "key", "response_body" from "idempotency_records" where ("response_body" like +? or "response_body" like +?) order by "scope", "key";
-- values: ["%1001%","%submission-1%"]

-- setResponseBody
update "idempotency_records" set "response_body" = +? where "scope" = +? and "key" = +?;
-- values: ["{}","scope-1","key-1"]
