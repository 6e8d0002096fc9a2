-- The client's behaviour against the fake service, on virtual time.
local Harness = require("harness")
local FakeService = require("fake_service")

local function paths(requests)
	local out = {}
	for _, request in ipairs(requests) do
		out[#out + 1] = request.path
	end
	return out
end

describe("joining", function()
	it("starts a shift for a staff member who joins, with the server's ids and the game server's clock", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		local starts = h.service:requestsTo("/shifts/start$")
		assert.are.equal(1, #starts)
		local request = starts[1]
		assert.are.equal("POST", request.method)
		assert.are.equal(FakeService.BASE_URL .. "/v1/activity/shifts/start", request.url)
		assert.are.same({ gameUserId = "1001", universeId = "42", placeId = "7", serverId = "srv-1",
			startedAt = "2026-11-18T11:06:40.000Z" }, request.body)
		assert.are.equal("Bearer " .. FakeService.API_KEY, request.headers["Authorization"])
		assert.are.equal("application/json", request.headers["Content-Type"])
		assert.are.equal("wsg-srv-1-1795000000000-1-", string.sub(request.headers["Idempotency-Key"], 1, 26))
		assert.are.equal("active", h.client:status().tracked["1001"].state)
	end)

	it("makes idempotency keys unique across restarts even when the random source repeats itself", function()
		local first = Harness.new({ random = function() return 0.5 end })
		first.client:start()
		first.join(1001)
		first.join(1002)
		local second = Harness.new({ random = function() return 0.5 end })
		second.world:advance(0.001) -- a restarted process: same server, same random numbers, a later clock
		second.client:start()
		second.join(1001)
		local keys = {}
		for _, h in ipairs({ first, second }) do
			for _, request in ipairs(h.service.requests) do
				local key = request.headers["Idempotency-Key"]
				assert.is_nil(keys[key], key)
				assert.is_true(#key <= 255 and string.match(key, "^[%w%-_]+$") ~= nil)
				keys[key] = true
			end
		end
	end)

	it("takes in the players already on the server when it starts", function()
		local h = Harness.new({ alreadyHere = { 1001, 1002 } })
		h.client:start()
		assert.are.equal(2, #h.service:requestsTo("/shifts/start$"))
	end)

	it("remembers a 404 (not a staff member) and never asks again for that player on this server", function()
		local h = Harness.new()
		h.client:start()
		h.join(5555)
		assert.are.equal("not_staff", h.client:status().notStaff["5555"])
		h.leave(5555)
		h.join(5555)
		h.world:advance(120)
		assert.are.equal(1, #h.service:requestsTo("/shifts/start$"))
		assert.are.equal(1, #h.service.requests)
	end)

	it("does not retry a start refused because the staff member is inactive", function()
		local h = Harness.new({ staff = { ["1001"] = "inactive" } })
		h.client:start()
		h.join(1001)
		h.join(1001)
		h.world:advance(60)
		assert.are.equal(1, #h.service:requestsTo("/shifts/start$"))
		assert.are.equal("staff_inactive", h.client:status().notStaff["1001"])
	end)

	it("a second join of a tracked player sends nothing", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		h.join(1001)
		assert.are.equal(1, #h.service:requestsTo("/shifts/start$"))
	end)
end)

describe("heartbeats", function()
	it("sends one batch per interval for all shifts of the server, and nothing while there are none", function()
		local h = Harness.new()
		h.client:start()
		h.world:advance(95)
		assert.are.equal(0, #h.service.requests)
		h.join(1001)
		h.join(1002)
		h.join(1003)
		h.world:advance(90)
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		assert.are.equal(3, #batches)
		assert.are.same({ "shift-001", "shift-002", "shift-003" }, batches[1].body.shiftIds)
		assert.are.equal("srv-1", batches[1].body.serverId)
		assert.matches("^%d%d%d%d%-%d%d%-%d%dT", batches[1].body.recordedAt)
		assert.are.equal(120, batches[1].at)
		assert.are.equal(150, batches[2].at)
		for _, shift in pairs(h.service.shifts) do
			assert.are.equal(3, shift.heartbeats)
		end
	end)

	it("follows the configured interval", function()
		local h = Harness.new({ options = { heartbeatIntervalSeconds = 10 } })
		h.client:start()
		h.join(1001)
		h.world:advance(60)
		assert.are.equal(6, #h.service:requestsTo("/shifts/heartbeats$"))
	end)

	it("splits more than 200 shifts into batches of at most 200", function()
		local staff = {}
		for i = 1, 450 do
			staff[tostring(10000 + i)] = "s" .. i
		end
		local h = Harness.new({ staff = staff, options = { requestsPerMinute = 1000 } })
		h.client:start()
		for i = 1, 450 do
			h.join(10000 + i)
		end
		h.world:advance(30)
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		assert.are.equal(3, #batches)
		assert.are.equal(200, #batches[1].body.shiftIds)
		assert.are.equal(200, #batches[2].body.shiftIds)
		assert.are.equal(50, #batches[3].body.shiftIds)
	end)

	it("drops a shift answered shift_not_active and starts a new one for a player still here", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		h.join(1002)
		h.service.shifts["shift-001"].status = "completed" -- the service timed it out
		h.world:advance(30)
		local tracked = h.client:status().tracked
		assert.are.equal("shift-003", tracked["1001"].shiftId)
		assert.are.equal(1, #h.logged("shift dropped"))
		h.world:advance(30)
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		assert.are.same({ "shift-002", "shift-003" }, batches[2].body.shiftIds)
	end)

	it("drops a shift answered not_found and does not start another for it", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		h.join(1002)
		h.service.shifts["shift-001"] = nil
		h.world:advance(60)
		assert.is_nil(h.client:status().tracked["1001"])
		assert.are.equal(2, #h.service:requestsTo("/shifts/start$"))
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		assert.are.same({ "shift-002" }, batches[2].body.shiftIds)
	end)

	it("keeps a shift whose item failed for another reason", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		h.service:script("/shifts/heartbeats$", { status = 200, body = { data = { results = {
			{ shiftId = "shift-001", error = { code = "validation_failed", message = "recordedAt before startedAt" } },
		} } } })
		h.world:advance(60)
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		assert.are.same({ "shift-001" }, batches[2].body.shiftIds)
	end)

	it("gives up a batch that cannot get through within its interval; the next interval sends a fresh one", function()
		local h = Harness.new({ options = { heartbeatIntervalSeconds = 30 } })
		h.client:start()
		h.join(1001)
		h.service:script("/shifts/heartbeats$", { status = 503, headers = { ["Retry-After"] = "45" } })
		h.world:advance(80)
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		-- the 503 asked for 45 s, past the interval: given up, and the next batch waited out the pause
		assert.are.equal(2, #batches)
		assert.are_not.equal(batches[1].headers["Idempotency-Key"], batches[2].headers["Idempotency-Key"])
		assert.is_true(batches[2].at >= 75)
	end)
end)

describe("leaving", function()
	it("stops the shift with player_left and heartbeats it no more", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		h.join(1002)
		h.leave(1001)
		local stops = h.service:requestsTo("/shifts/shift%-001/stop$")
		assert.are.equal(1, #stops)
		assert.are.equal("player_left", stops[1].body.reason)
		assert.matches("Z$", stops[1].body.endedAt)
		assert.are.equal("player_left", h.service.shifts["shift-001"].endReason)
		h.world:advance(30)
		assert.are.same({ "shift-002" }, h.service:requestsTo("/shifts/heartbeats$")[1].body.shiftIds)
	end)

	it("stops a shift whose start was still in flight when the player left", function()
		local h = Harness.new()
		h.service.latency = 2
		h.client:start()
		h.join(1001)
		h.leave(1001)
		h.world:advance(10)
		assert.are.same({ "/v1/activity/shifts/start", "/v1/activity/shifts/shift-001/stop" }, paths(h.service.requests))
		assert.are.equal("completed", h.service.shifts["shift-001"].status)
	end)

	it("a player who rejoins while the stop is in flight gets a new shift once it lands", function()
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		h.service.latency = 2
		h.leave(1001)
		h.join(1001)
		h.world:advance(10)
		assert.are.equal("completed", h.service.shifts["shift-001"].status)
		assert.are.equal("active", h.service.shifts["shift-002"].status)
		assert.are.equal("shift-002", h.client:status().tracked["1001"].shiftId)
	end)
end)

describe("network loss", function()
	it("skips the batches it cannot send instead of queueing them, and carries on when the network returns", function()
		local h = Harness.new({ options = { heartbeatIntervalSeconds = 30 } })
		h.client:start()
		h.join(1001)
		h.service:script("/shifts/heartbeats$", { failure = "HttpError: ConnectFail" }, 1000)
		h.world:advance(120) -- four intervals without a network
		local duringLoss = #h.service:requestsTo("/shifts/heartbeats$")
		h.service.scripted = {}
		h.world:advance(60)
		local batches = h.service:requestsTo("/shifts/heartbeats$")
		-- after the loss: the batch in flight gets through on a retry, then one per interval; the four missed
		-- intervals are not sent as a backlog
		local after = #batches - duringLoss
		assert.is_true(after >= 2 and after <= 3, after .. " batches in the minute after the loss")
		assert.are.equal("active", h.client:status().tracked["1001"].state)
		assert.are.equal(after, h.service.shifts["shift-001"].heartbeats)
	end)
end)

