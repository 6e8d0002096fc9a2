-- The pure parts of the core: dates, backoff, Retry-After, classification, the budget, configuration.
local lib = require("core")
local World = require("world")

describe("Time", function()
	it("formats Unix milliseconds as ISO-8601 UTC with milliseconds", function()
		assert.are.equal("1970-01-01T00:00:00.000Z", lib.Time.isoFromUnixMillis(0))
		assert.are.equal("2026-11-24T21:47:05.123Z", lib.Time.isoFromUnixMillis(1795556825123))
		assert.are.equal("2024-02-29T23:59:59.999Z", lib.Time.isoFromUnixMillis(1709251199999))
		assert.are.equal("2000-03-01T00:00:00.000Z", lib.Time.isoFromUnixMillis(951868800000))
	end)

	it("reads an HTTP-date, and nothing else", function()
		assert.are.equal(1445412480, lib.Time.unixFromHttpDate("Wed, 21 Oct 2015 07:28:00 GMT"))
		assert.is_nil(lib.Time.unixFromHttpDate("21 Oct 2015"))
		assert.is_nil(lib.Time.unixFromHttpDate("Wed, 21 Foo 2015 07:28:00 GMT"))
	end)
end)

describe("Retry", function()
	it("backs off exponentially, capped, with the jitter in the upper half of each step", function()
		local low = function() return 0 end
		local high = function() return 0.999999 end
		assert.are.equal(0.5, lib.Retry.backoffSeconds(1, 1, 30, low))
		assert.are.equal(4, lib.Retry.backoffSeconds(4, 1, 30, low))
		assert.is_true(lib.Retry.backoffSeconds(4, 1, 30, high) < 8)
		assert.are.equal(15, lib.Retry.backoffSeconds(10, 1, 30, low))
		assert.is_true(lib.Retry.backoffSeconds(10, 1, 30, high) <= 30)
	end)

	it("reads Retry-After as seconds or as an HTTP-date, and ignores anything else", function()
		local now = lib.Time.unixFromHttpDate("Wed, 21 Oct 2015 07:28:00 GMT")
		assert.are.equal(7, lib.Retry.retryAfterSeconds(" 7 ", now, lib.Time))
		assert.are.equal(30, lib.Retry.retryAfterSeconds("Wed, 21 Oct 2015 07:28:30 GMT", now, lib.Time))
		assert.are.equal(0, lib.Retry.retryAfterSeconds("Wed, 21 Oct 2015 07:27:00 GMT", now, lib.Time))
		assert.is_nil(lib.Retry.retryAfterSeconds("soon", now, lib.Time))
		assert.is_nil(lib.Retry.retryAfterSeconds(nil, now, lib.Time))
	end)

	it("retries 5xx, 408 and in-progress idempotency conflicts; waits on 429 and 503; never retries other 4xx", function()
		assert.are.equal("ok", lib.Retry.classify(200))
		assert.are.equal("throttled", lib.Retry.classify(429, "rate_limited"))
		assert.are.equal("throttled", lib.Retry.classify(503))
		assert.are.equal("retry", lib.Retry.classify(500, "internal_error"))
		assert.are.equal("retry", lib.Retry.classify(502))
		assert.are.equal("retry", lib.Retry.classify(408))
		assert.are.equal("retry", lib.Retry.classify(409, "idempotency_request_in_progress"))
		assert.are.equal("final", lib.Retry.classify(409, "shift_not_active"))
		assert.are.equal("final", lib.Retry.classify(404, "not_found"))
		assert.are.equal("final", lib.Retry.classify(422, "idempotency_key_reused"))
		assert.are.equal("final", lib.Retry.classify(400, "validation_failed"))
	end)
end)

describe("Budget", function()
	it("never allows more than perMinute acquisitions in any 60-second window", function()
		local world = World.new()
		local budget = lib.Budget.new(3, world.clock, world.scheduler.sleep)
		local times = {}
		for _ = 1, 7 do
			world:go(function()
				budget:acquire()
				times[#times + 1] = world.now
			end)
		end
		world:advance(200)
		assert.are.same({ 0, 0, 0, 60, 60, 60, 120 }, times)
	end)

	it("refuses, spending nothing, when the wait would pass the deadline", function()
		local world = World.new()
		local budget = lib.Budget.new(1, world.clock, world.scheduler.sleep)
		local results = {}
		world:go(function()
			results[1] = budget:acquire()
			results[2] = budget:acquire(30)
		end)
		world:advance(1)
		assert.are.same({ true, false }, results)
		assert.are.equal(0, budget:remaining())
		world:advance(60)
		assert.are.equal(1, budget:remaining())
	end)
end)

describe("Config", function()
	local base = { baseUrl = "https://gw.example.com/", apiKey = "wsk_live_abcdefABCDEF0123456789abcdefABCD", serverId = "job-1", universeId = 1, placeId = 2 }
	local function with(changes)
		local options = {}
		for k, v in pairs(base) do options[k] = v end
		for k, v in pairs(changes) do options[k] = v end
		return options
	end

	it("fills in the defaults and trims the base URL", function()
		local config = lib.Config.resolve(base)
		assert.are.equal("https://gw.example.com", config.baseUrl)
		assert.are.equal(30, config.heartbeatIntervalSeconds)
		assert.are.equal(60, config.requestsPerMinute)
		assert.are.equal(20, config.shutdownTimeoutSeconds)
		assert.are.equal("1", config.universeId)
		assert.are.equal("Bearer " .. base.apiKey, config.authorization)
		assert.are.equal(30, config.applicationDeadlineSeconds)
		assert.is_true(config.sendTimestamps)
		assert.is_true(config.trackShifts)
	end)

	it("takes true or false, and nothing else, for the switches", function()
		assert.is_false(lib.Config.resolve(with({ trackShifts = false })).trackShifts)
		assert.is_false(lib.Config.resolve(with({ sendTimestamps = false })).sendTimestamps)
		local ok, err = pcall(lib.Config.resolve, with({ trackShifts = "no" }))
		assert.is_false(ok)
		assert.matches("trackShifts must be true or false", err)
		assert.has_error(function() lib.Config.resolve(with({ applicationDeadlineSeconds = -1 })) end)
	end)

	it("writes large numeric ids without exponent notation", function()
		assert.are.equal("9007199254740991", lib.Config.resolve(with({ universeId = 9007199254740991 })).universeId)
	end)

	it("rejects a malformed key without echoing it", function()
		local ok, err = pcall(lib.Config.resolve, with({ apiKey = "secret-but-wrong" }))
		assert.is_false(ok)
		assert.matches("apiKey must be", err)
		assert.is_nil(string.find(err, "secret-but-wrong", 1, true))
	end)

	it("rejects bad values with a message naming the setting", function()
		assert.has_error(function() lib.Config.resolve(with({ baseUrl = "gw.example.com" })) end)
		assert.has_error(function() lib.Config.resolve(with({ heartbeatIntervalSeconds = 0 })) end)
		assert.has_error(function() lib.Config.resolve(with({ requestsPerMinute = "many" })) end)
		assert.has_error(function() lib.Config.resolve(with({ serverId = string.rep("x", 129) })) end)
		assert.has_error(function() lib.Config.resolve(with({ placeId = "" })) end)
	end)
end)
