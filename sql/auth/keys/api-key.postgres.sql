-- createApiKeyAuthenticator
select k.id as key_id, k.environment, k.scopes, k.revoked, k.expires_at,
       a.id as application_id, a.name as application_name, a.workspace_id, a.approved, a.features,
       a.allowed_universe_ids
from api_keys as k
join applications as a on a.id = k.application_id
where k.key_hash = $1;
-- values: ["9dca1ad5357ec48edce6fd7d9260c2ffbae4ab7fc012c7eb7b92d86454fbfd29"]
