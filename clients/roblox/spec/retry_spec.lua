-- Retries, Retry-After and the request budget, through the client.
local Harness = require("harness")

local function keys(requests)
	local out = {}
	for _, request in ipairs(requests) do
		out[#out + 1] = request.headers["Idempotency-Key"]
	end
	return out
end

local function allEqual(list)
	for i = 2, #list do
		if list[i] ~= list[1] then
			return false
		end
	end
	return true
end

describe("retries", function()
	it("retries a 503 after its Retry-After, under the same Idempotency-Key and the same body", function()
		local h = Harness.new()
		h.client:start()
		h.service:script("/shifts/start$", { status = 503, headers = { ["Retry-After"] = "7" } }, 2)
		h.join(1001)
		h.world:advance(20)
		local starts = h.service:requestsTo("/shifts/start$")
		assert.are.equal(3, #starts)
		assert.are.same({ 0, 7, 14 }, { starts[1].at, starts[2].at, starts[3].at })
		assert.is_true(allEqual(keys(starts)))
		assert.are.equal(starts[1].rawBody, starts[3].rawBody)
		assert.are.equal("active", h.client:status().tracked["1001"].state)
	end)

	it("honours a 429's Retry-After (also as an HTTP-date) and holds back the client's other requests meanwhile", function()
		local h = Harness.new()
		h.client:start()
		h.service:script("/shifts/start$", { status = 429, headers = { ["retry-after"] = "Wed, 18 Nov 2026 11:06:50 GMT" },
			body = { error = { code = "rate_limited", message = "slow down" } } })
		h.join(1001)
		h.join(1002)
		h.world:advance(20)
		local starts = h.service:requestsTo("/shifts/start$")
		assert.are.equal(3, #starts)
		assert.are.equal(0, starts[1].at)
		-- the second player's start was queued behind the 10 s pause, not sent into it
		assert.are.same({ 10, 10 }, { starts[2].at, starts[3].at })
		assert.are.equal(starts[1].headers["Idempotency-Key"], starts[2].headers["Idempotency-Key"])
		assert.are_not.equal(starts[1].headers["Idempotency-Key"], starts[3].headers["Idempotency-Key"])
	end)

	it("backs off exponentially with jitter on 5xx and on network failures, under the same key", function()
		local h = Harness.new()
		h.client:start()
		h.service:script("/shifts/start$", { status = 500, body = { error = { code = "internal_error", message = "x" } } }, 2)
		h.service:script("/shifts/start$", { failure = "connection reset" }, 2)
		h.join(1001)
		h.world:advance(60)
		local starts = h.service:requestsTo("/shifts/start$")
		assert.are.equal(5, #starts)
		assert.is_true(allEqual(keys(starts)))
		local previousGap = 0
		for i = 2, #starts do
			local gap = starts[i].at - starts[i - 1].at
			local cap = 2 ^ (i - 2)
			assert.is_true(gap >= cap / 2 and gap <= cap, "gap " .. gap .. " outside [" .. cap / 2 .. ", " .. cap .. "]")
			assert.is_true(gap > previousGap * 0.5)
			previousGap = gap
		end
		assert.are.equal("active", h.client:status().tracked["1001"].state)
	end)

	it("retries a 409 idempotency_request_in_progress, but never another 4xx", function()
		local h = Harness.new()
		h.client:start()
		h.service:script("/shifts/start$", { status = 409, body = { error = { code = "idempotency_request_in_progress", message = "busy" } } })
		h.join(1001)
		h.service:script("/shifts/start$", { status = 400, body = { error = { code = "validation_failed", message = "bad" } } })
		h.join(1002)
		h.world:advance(10)
		assert.are.equal(3, #h.service:requestsTo("/shifts/start$"))
		assert.are.equal("active", h.client:status().tracked["1001"].state)
		assert.is_nil(h.client:status().tracked["1002"])
	end)

	it("does not start again, at later intervals, a start the service refused for good (401, 403)", function()
		local h = Harness.new()
		h.client:start()
		h.service:script("/shifts/start$", { status = 403, body = { error = { code = "universe_not_allowed", message = "no" } } }, 100)
		h.join(1001)
		h.world:advance(120)
		assert.are.equal(1, #h.service:requestsTo("/shifts/start$"))
		assert.are.equal(1, #h.logged("the service refused it"))
		assert.are.equal("error", h.logged("the service refused it")[1].level)
	end)

	it("gives up after maxAttempts and tries the start again at the next heartbeat interval", function()
		local h = Harness.new({ options = { maxAttempts = 3 } })
		h.client:start()
		h.service:script("/shifts/start$", { status = 502 }, 3)
		h.join(1001)
		h.world:advance(29)
		assert.are.equal(3, #h.service:requestsTo("/shifts/start$"))
		assert.is_nil(h.client:status().tracked["1001"])
		h.world:advance(2)
		local starts = h.service:requestsTo("/shifts/start$")
		assert.are.equal(4, #starts)
		assert.are_not.equal(starts[1].headers["Idempotency-Key"], starts[4].headers["Idempotency-Key"])
		assert.are.equal("active", h.client:status().tracked["1001"].state)
	end)
end)

describe("request budget", function()
	it("never sends more than requestsPerMinute requests in any 60-second window, and still gets every start through", function()
		local staff = {}
		for i = 1, 12 do
			staff[tostring(2000 + i)] = "s" .. i
		end
		local h = Harness.new({ staff = staff, options = { requestsPerMinute = 5, heartbeatIntervalSeconds = 30 } })
		h.client:start()
		h.service:script("/shifts/start$", { status = 503 }, 3)
		for i = 1, 12 do
			h.join(2000 + i)
		end
		h.world:advance(600)
		local times = {}
		for _, request in ipairs(h.service.requests) do
			times[#times + 1] = request.at
		end
		for i = 1, #times do
			local inWindow = 0
			for j = 1, #times do
				if times[j] >= times[i] and times[j] < times[i] + 60 then
					inWindow = inWindow + 1
				end
			end
			assert.is_true(inWindow <= 5, inWindow .. " requests in the minute from " .. times[i])
		end
		local active = 0
		for _, entry in pairs(h.client:status().tracked) do
			if entry.state == "active" then
				active = active + 1
			end
		end
		assert.are.equal(12, active)
	end)
end)
