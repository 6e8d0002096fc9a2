-- The Roblox adapter, loaded in a stand-in of the platform: HttpService, Players, game, task, DateTime.
local World = require("world")
local FakeService = require("fake_service")
local json = require("dkjson")

local function signal()
	local handlers = {}
	return {
		Connect = function(_, fn)
			handlers[#handlers + 1] = fn
		end,
		fire = function(...)
			for _, fn in ipairs(handlers) do
				fn(...)
			end
		end,
	}
end

-- Loads init.lua with a fake platform; returns the module and the pieces the test drives.
local function loadAdapter(jobId)
	local world = World.new()
	local service = FakeService.new(world, { ["1001"] = "staff-a" })
	local calls, closeHandlers, guids, printed = {}, {}, 0, {}
	local secret = { kind = "Secret" }
	local HttpService = {
		HttpEnabled = true,
		RequestAsync = function(_, options)
			calls[#calls + 1] = options
			local response, failure = service.transport.request({
				method = options.Method, url = options.Url, headers = options.Headers, body = options.Body,
			})
			if not response then
				error(failure)
			end
			return { Success = response.status < 300, StatusCode = response.status, Headers = response.headers, Body = response.body }
		end,
		JSONEncode = function(_, value)
			return (json.encode(value))
		end,
		JSONDecode = function(_, text)
			return (json.decode(text))
		end,
		GenerateGUID = function()
			guids = guids + 1
			return string.format("GUID-%d", guids)
		end,
		GetSecret = function(_, name)
			assert(name == "gateway_key")
			return { AddPrefix = function(_, prefix)
				secret.prefix = prefix
				return secret
			end }
		end,
	}
	local Players = { PlayerAdded = signal(), PlayerRemoving = signal(), GetPlayers = function() return {} end }
	local core = {}
	local env = {
		game = {
			JobId = jobId, GameId = 4242, PlaceId = 77,
			GetService = function(_, name)
				return ({ HttpService = HttpService, Players = Players })[name]
			end,
			BindToClose = function(_, fn)
				closeHandlers[#closeHandlers + 1] = fn
			end,
		},
		script = { WaitForChild = function(_, name)
			assert(name == "Core")
			return { WaitForChild = function(_, child)
				core[child] = true
				return { module = child }
			end }
		end },
		require = function(instance)
			return require(instance.module)
		end,
		task = {
			spawn = function(fn)
				world.scheduler.spawn(fn)
			end,
			wait = function(seconds)
				world.scheduler.sleep(seconds)
			end,
		},
		os = { clock = world.clock.monotonic },
		DateTime = { now = function()
			return { UnixTimestampMillis = world.clock.unixMillis() }
		end },
		Random = { new = function()
			return { NextNumber = function() return 0.25 end }
		end },
		print = function(line) printed[#printed + 1] = line end,
		warn = function(line) printed[#printed + 1] = line end,
	}
	for _, name in ipairs({ "pairs", "ipairs", "pcall", "tostring", "table", "string", "math", "setmetatable", "type", "error", "next" }) do
		env[name] = _G[name]
	end
	local chunk = assert(loadfile("src/WorkspaceGateway/init.lua"))
	setfenv(chunk, env)
	return {
		module = chunk(), world = world, service = service, calls = calls, closeHandlers = closeHandlers,
		Players = Players, secret = secret, printed = printed, core = core, HttpService = HttpService,
	}
end

describe("the Roblox adapter", function()
	it("wires HttpService, Players, a secret and BindToClose into the core", function()
		local a = loadAdapter("job-1")
		assert.are.same({ Config = true, Time = true, Retry = true, Budget = true, Log = true, Requester = true, Heartbeats = true, Applications = true, PlayerThrottle = true, ApplicationCentre = true, Client = true }, a.core)
		local client = a.module.start({ baseUrl = "https://gateway.test", apiKeySecret = "gateway_key" })
		assert.are.equal(1, #a.closeHandlers)

		a.Players.PlayerAdded.fire({ UserId = 1001 })
		local start = a.calls[1]
		assert.are.equal("https://gateway.test/v1/activity/shifts/start", start.Url)
		assert.are.equal("POST", start.Method)
		assert.are.equal(a.secret, start.Headers["Authorization"])
		assert.are.equal("Bearer ", a.secret.prefix)
		assert.are.same({ gameUserId = "1001", universeId = "4242", placeId = "77", serverId = "job-1",
			startedAt = "2026-11-18T11:06:40.000Z" }, json.decode(start.Body))
		assert.are.equal("GUID-1", start.Headers["Idempotency-Key"])

		a.world:advance(30)
		assert.are.equal("https://gateway.test/v1/activity/shifts/heartbeats", a.calls[2].Url)

		local finished = false
		a.world.scheduler.spawn(function()
			a.closeHandlers[1]()
			finished = true
		end)
		assert.is_true(finished)
		assert.are.equal("https://gateway.test/v1/activity/servers/job-1/stop", a.calls[3].Url)
		assert.are.equal("completed", a.service.shifts["shift-001"].status)
		assert.is_true(client:status().closing)
	end)

	it("stops the shift on PlayerRemoving, and names the server in Studio, where JobId is empty", function()
		local a = loadAdapter("")
		a.module.start({ baseUrl = "https://gateway.test", apiKey = FakeService.API_KEY })
		a.Players.PlayerAdded.fire({ UserId = 1001 })
		a.Players.PlayerRemoving.fire({ UserId = 1001 })
		assert.are.equal("https://gateway.test/v1/activity/shifts/shift-001/stop", a.calls[2].Url)
		assert.are.equal("player_left", json.decode(a.calls[2].Body).reason)
		assert.matches("^studio%-GUID%-", json.decode(a.calls[1].Body).serverId)
	end)

	it("turns a RequestAsync error into a retried transport failure, and the default log never shows the key", function()
		local a = loadAdapter("job-2")
		a.service:script("/shifts/start$", { failure = "HttpError: ConnectFail Bearer " .. FakeService.API_KEY })
		a.module.start({ baseUrl = "https://gateway.test", apiKey = FakeService.API_KEY })
		a.Players.PlayerAdded.fire({ UserId = 1001 })
		a.world:advance(5)
		assert.are.equal(2, #a.service:requestsTo("/shifts/start$"))
		assert.is_true(#a.printed > 0)
		for _, line in ipairs(a.printed) do
			assert.matches("^%[WorkspaceGateway%]", line)
			assert.is_nil(string.find(line, FakeService.API_KEY, 1, true), line)
		end
	end)

	it("serves an application centre without shift tracking: a form, a submission and the status over HttpService", function()
		local a = loadAdapter("job-4")
		assert.matches("^%d+%.%d+%.%d+$", a.module.VERSION)
		a.service.applications:addForm({ id = "form-1", name = "Moderator application", questions = {
			{ id = "why", label = "Why?", type = "short_text", required = true },
		} })
		local client = a.module.start({ baseUrl = "https://gateway.test", apiKeySecret = "gateway_key", trackShifts = false })
		a.Players.PlayerAdded.fire({ UserId = 1001 })
		a.world:advance(60)
		assert.are.equal(0, #a.calls)
		local results = {}
		a.world.scheduler.spawn(function()
			results.form = client:getForm("form-1")
			results.submitted = client:submitApplication("form-1", { gameUserId = 1001 }, { why = "To help." })
			results.status = client:applicationStatus(1001)
		end)
		assert.are.equal("Why?", results.form.form.questions[1].label)
		assert.are.equal("GET", a.calls[1].Method)
		assert.is_nil(a.calls[1].Body)
		assert.are.equal(a.secret, a.calls[1].Headers["Authorization"])
		assert.are.equal("ok", results.submitted.outcome)
		assert.are.same({ applicant = { gameUserId = "1001" }, answers = { why = "To help." } }, json.decode(a.calls[2].Body))
		assert.are.equal("GUID-1", a.calls[2].Headers["Idempotency-Key"])
		assert.are.equal(results.submitted.submissionId, results.status.submissions[1].id)
		assert.are.equal(3, #a.calls)
	end)

	it("says so when HTTP requests are off in the experience", function()
		local a = loadAdapter("job-3")
		a.HttpService.HttpEnabled = false
		a.module.start({ baseUrl = "https://gateway.test", apiKey = FakeService.API_KEY })
		assert.matches("Allow HTTP Requests", a.printed[1])
	end)
end)
