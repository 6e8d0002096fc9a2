-- findResponseCopies
select "scope", "key", "response_body" from "idempotency_records" where ("response_body" like $1 or "response_body" like $2) order by "scope", "key";
-- values: ["%1001%","%submission-1%"]

-- setResponseBody
update "idempotency_records" set "response_body" = $1 where "scope" = $2 and "key" = $3;
-- values: ["{}","scope-1","key-1"]
