--[[
Retry: which answers are worth another attempt, and how long to wait before it.

Every retry of one logical request reuses its Idempotency-Key and its exact body, so the service applies
the request once however many attempts reach it.
]]

local Retry = {}

--- Exponential backoff with jitter: half of the capped exponential delay, plus a random share of the other half.
--- attempt counts from 1 (the delay before the second attempt).
function Retry.backoffSeconds(attempt, baseSeconds, maxSeconds, random) -- (number, number, number, () -> number) -> number
	local cap = baseSeconds * (2 ^ (attempt - 1))
	if cap > maxSeconds then
		cap = maxSeconds
	end
	return cap / 2 + random() * cap / 2
end

--- Seconds a Retry-After header asks for (delta-seconds or an HTTP-date), or nil when absent or unreadable.
function Retry.retryAfterSeconds(value, nowUnixSeconds, Time) -- (string?, number, TimeModule) -> number?
	if type(value) ~= "string" then
		return nil
	end
	local trimmed = string.match(value, "^%s*(.-)%s*$")
	if string.match(trimmed, "^%d+$") then
		return tonumber(trimmed)
	end
	local at = Time.unixFromHttpDate(trimmed)
	if at then
		local delta = at - nowUnixSeconds
		return delta > 0 and delta or 0
	end
	return nil
end

--- How a response status is treated:
---   "ok"        2xx
---   "throttled" 429 and 503: wait what Retry-After says (else back off), then retry
---   "retry"     other 5xx, 408, and 409 idempotency_request_in_progress: back off, then retry
---   "final"     any other 4xx: retrying the same request cannot change the answer
function Retry.classify(status, errorCode) -- (number, string?) -> string
	if status >= 200 and status < 300 then
		return "ok"
	end
	if status == 429 or status == 503 then
		return "throttled"
	end
	if status >= 500 or status == 408 then
		return "retry"
	end
	if status == 409 and errorCode == "idempotency_request_in_progress" then
		return "retry"
	end
	return "final"
end

return Retry
