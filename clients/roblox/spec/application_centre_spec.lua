-- The application centre's RemoteFunction handlers: each player throttled, so one exploiting player cannot spend
-- the server's request budget.
local Harness = require("harness")
local PlayerThrottle = require("PlayerThrottle")

local function player(userId)
	return { UserId = userId, Name = "player" .. userId, DisplayName = "Player " .. userId }
end

local function count(results)
	local out = {}
	for _, result in ipairs(results) do
		out[result.outcome] = (out[result.outcome] or 0) + 1
	end
	return out
end

describe("PlayerThrottle", function()
	it("allows perMinute calls at once, then one more each 60 / perMinute seconds, per player", function()
		local now = 0
		local throttle = PlayerThrottle.new(3, { monotonic = function() return now end })
		for _ = 1, 3 do
			assert.is_true((throttle:take("a")))
		end
		local allowed, wait = throttle:take("a")
		assert.is_false(allowed)
		assert.are.equal(20, wait)
		assert.is_true((throttle:take("b")))
		now = 10
		assert.is_false((throttle:take("a")))
		now = 20
		assert.is_true((throttle:take("a")))
		assert.is_false((throttle:take("a")))
		throttle:forget("a")
		assert.is_true((throttle:take("a")))
	end)
end)

describe("application centre", function()
	it("refuses a flooding player's calls past their allowance without sending them; another player is served", function()
		local h = Harness.applicationCentre({ options = { requestsPerMinute = 30 } })
		local centre = h.client:applicationCentre({ formId = h.form.id, callsPerMinute = 5 })
		local flooder, other = player(5001), player(5002)
		local results = h.run(function()
			local out = {}
			for i = 1, 50 do
				out[i] = centre:status(flooder)
			end
			return out
		end)
		assert.are.same({ ok = 5, throttled = 45 }, count(results))
		assert.are.same({ ok = false, outcome = "throttled", retryAfterSeconds = 12 }, results[6])
		assert.are.equal(5, #h.service:requestsTo("/applicants/"))
		assert.are.equal(25, h.client.budget:remaining())

		local served = h.run(function()
			return centre:status(other)
		end)
		assert.are.equal("ok", served.outcome)
		assert.are.equal(24, h.client.budget:remaining())
		-- A minute later the flooder has their allowance back.
		h.world:advance(60)
		assert.are.equal("ok", h.run(function()
			return centre:status(flooder)
		end).outcome)
	end)

	it("reads the form once and then serves it from memory, to any number of calls", function()
		local h = Harness.applicationCentre()
		local centre = h.client:applicationCentre({ formId = h.form.id, callsPerMinute = 2 })
		local results = h.run(function()
			local out = {}
			for i = 1, 20 do
				out[i] = centre:getForm(player(5001))
			end
			return out
		end)
		assert.are.same({ ok = 20 }, count(results))
		assert.are.equal(h.form.id, results[20].form.id)
		assert.are.equal(1, #h.service:requestsTo("/forms/"))
	end)

	it("a flooding player's submissions are refused past the allowance; the applicant is the calling player", function()
		local h = Harness.applicationCentre()
		local centre = h.client:applicationCentre({ formId = h.form.id, callsPerMinute = 3 })
		local results = h.run(function()
			local out = {}
			for i = 1, 10 do
				out[i] = centre:submit(player(5001), { why = "x", age = 5 })
			end
			return out
		end)
		assert.are.same({ validation_failed = 3, throttled = 7 }, count(results))
		local sent = h.service:requestsTo("/submissions$")
		assert.are.equal(3, #sent)
		assert.are.equal("5001", sent[1].body.applicant.gameUserId)
	end)

	it("keeps the heartbeats on time while a player floods the centre", function()
		local h = Harness.new({ options = { requestsPerMinute = 12, heartbeatIntervalSeconds = 10 } })
		h.form = h.service.applications:addForm(Harness.moderatorForm())
		h.client:start()
		h.join(1001)
		h.world:advance(1)
		local centre = h.client:applicationCentre({ formId = h.form.id, callsPerMinute = 4 })
		local flooder = player(5001)
		local results = h.run(function()
			local out = {}
			for i = 1, 100 do
				out[i] = centre:status(flooder)
			end
			return out
		end)
		assert.are.same({ ok = 4, throttled = 96 }, count(results))
		local before = #h.service:requestsTo("/shifts/heartbeats$")
		h.world:advance(60)
		local heartbeats = h.service:requestsTo("/shifts/heartbeats$")
		assert.are.equal(6, #heartbeats - before)
		for i = before + 2, #heartbeats do
			assert.are.equal(10, heartbeats[i].at - heartbeats[i - 1].at)
		end
	end)

	it("refuses a call with no form id as a mistake in the game's code", function()
		local h = Harness.applicationCentre()
		assert.has_error(function()
			h.client:applicationCentre({})
		end)
		assert.has_error(function()
			h.client:applicationCentre({ formId = h.form.id, callsPerMinute = 0 })
		end)
	end)
end)
