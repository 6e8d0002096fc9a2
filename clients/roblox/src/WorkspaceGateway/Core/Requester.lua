--[[
Requester: one logical request to the service, however many attempts it takes.

- Every attempt of a request carries the same Idempotency-Key and the same body text.
- Every attempt first spends one request of the budget.
- 429 and 503 honour Retry-After; the wait also holds back every other request of this client, because the
  service counts per API key, not per request.
- Network failures, other 5xx and 409 idempotency_request_in_progress back off exponentially, with jitter.
- Other 4xx are final. Nothing here ever logs a header or a body: the credential lives in the headers, and
  a body may carry an applicant's answers.
]]

local Requester = {}
Requester.__index = Requester

--- deps: config, transport, json, clock, sleep, random, newKey, log, budget, Retry, Time (see Client.new).
function Requester.new(deps) -- (RequesterDeps) -> Requester
	local self = setmetatable({}, Requester)
	for name, value in pairs(deps) do
		self[name] = value
	end
	self.pausedUntil = 0
	self.hardDeadline = nil
	return self
end

--- Caps every wait of every request (in flight or later) at `deadline` (monotonic seconds): used at shutdown.
function Requester:capDeadline(deadline) -- (number) -> ()
	self.hardDeadline = deadline
end

function Requester:_deadline(requested)
	local hard = self.hardDeadline
	if hard and (not requested or hard < requested) then
		return hard
	end
	return requested
end

local function lowerKeys(headers)
	local out = {}
	if type(headers) == "table" then
		for name, value in pairs(headers) do
			if type(name) == "string" then
				out[string.lower(name)] = value
			end
		end
	end
	return out
end

function Requester:_decode(text)
	if type(text) ~= "string" or text == "" then
		return nil
	end
	local ok, value = pcall(self.json.decode, text)
	if ok and type(value) == "table" then
		return value
	end
	return nil
end

-- Waits for the Retry-After pause and for the budget. False when either would outlast the deadline.
function Requester:_waitForTurn(deadline)
	local now = self.clock.monotonic()
	if self.pausedUntil > now then
		if deadline and self.pausedUntil > deadline then
			return false
		end
		self.sleep(self.pausedUntil - now)
	end
	return self.budget:acquire(deadline)
end

-- One attempt: (response table, nil) or (nil, failure text).
function Requester:_send(method, url, headers, bodyText)
	local response, failure = self.transport.request({ method = method, url = url, headers = headers, body = bodyText })
	if type(response) ~= "table" or type(response.status) ~= "number" then
		return nil, tostring(failure or "transport returned no response")
	end
	return response, nil
end

--- Runs one logical request. request: { method, path, body? (a table) or bodyText? (its JSON text), label,
--- deadline? (monotonic seconds), expectedCodes? ({ [code] = true }: refusals the caller handles as
--- ordinary outcomes, logged at debug, not warn) }.
--- Returns { ok, status?, data?, code?, message?, details?, requestId?, attempts, outcome }, where outcome is
--- "answered" (the service gave a final answer), "exhausted" (maxAttempts spent) or "deadline".
function Requester:call(request) -- (Request) -> Result
	local config = self.config
	local bodyText = request.bodyText or (request.body and self.json.encode(request.body)) or nil
	local headers = {
		["Authorization"] = config.authorization,
		["Accept"] = "application/json",
		["X-Client-Version"] = config.clientVersion,
	}
	if request.method ~= "GET" then
		-- One key per logical request, the same on every attempt: the service applies it once.
		headers["Idempotency-Key"] = self.newKey()
	end
	if bodyText then
		headers["Content-Type"] = "application/json"
	end
	local url = config.baseUrl .. request.path
	local attempt = 0
	local last = { ok = false, attempts = 0, outcome = "deadline" }
	while true do
		local deadline = self:_deadline(request.deadline)
		if not self:_waitForTurn(deadline) then
			last.outcome = "deadline"
			last.attempts = attempt
			self.log("warn", "request given up: its deadline passed while waiting for the request budget", {
				operation = request.label, attempts = attempt, status = last.status, code = last.code,
			})
			return last
		end
		attempt = attempt + 1
		local response, failure = self:_send(request.method, url, headers, bodyText)
		local kind, retryAfter
		if response then
			local responseHeaders = lowerKeys(response.headers)
			local body = self:_decode(response.body)
			local err = body and type(body.error) == "table" and body.error or nil
			last = {
				ok = false, status = response.status, attempts = attempt, outcome = "answered",
				requestId = responseHeaders["x-request-id"],
				code = err and err.code or nil, message = err and err.message or nil,
				details = err and type(err.details) == "table" and err.details or nil,
			}
			kind = self.Retry.classify(response.status, last.code)
			if kind == "ok" then
				last.ok = true
				last.data = body and body.data or nil
				self.log("debug", "request succeeded", {
					operation = request.label, status = response.status, attempts = attempt, requestId = last.requestId,
				})
				return last
			end
			if kind == "throttled" then
				retryAfter = self.Retry.retryAfterSeconds(
					responseHeaders["retry-after"], self.clock.unixMillis() / 1000, self.Time)
				if retryAfter then
					local until_ = self.clock.monotonic() + retryAfter
					if until_ > self.pausedUntil then
						self.pausedUntil = until_
					end
				end
			end
			if kind == "final" then
				local expected = response.status == 404 or (request.expectedCodes and request.expectedCodes[last.code])
				self.log(expected and "debug" or "warn", "request refused", {
					operation = request.label, status = response.status, code = last.code,
					message = last.message, requestId = last.requestId, attempts = attempt,
				})
				return last
			end
		else
			last = { ok = false, attempts = attempt, outcome = "answered", message = failure }
			kind = "retry"
		end
		if attempt >= config.maxAttempts then
			last.outcome = "exhausted"
			self.log("warn", "request given up after its last attempt", {
				operation = request.label, attempts = attempt, status = last.status, code = last.code,
				message = last.message, requestId = last.requestId,
			})
			return last
		end
		local delay = retryAfter
			or self.Retry.backoffSeconds(attempt, config.retryBaseSeconds, config.retryMaxSeconds, self.random)
		local now = self.clock.monotonic()
		deadline = self:_deadline(request.deadline)
		if deadline and now + delay > deadline then
			last.outcome = "deadline"
			self.log("warn", "request given up: the next attempt would come after its deadline", {
				operation = request.label, attempts = attempt, status = last.status, code = last.code,
				message = last.message, retryInSeconds = delay,
			})
			return last
		end
		self.log("info", "request will be retried with the same idempotency key", {
			operation = request.label, attempt = attempt, status = last.status, code = last.code,
			message = last.message, retryInSeconds = delay, requestId = last.requestId,
		})
		self.sleep(delay)
	end
end

return Requester
