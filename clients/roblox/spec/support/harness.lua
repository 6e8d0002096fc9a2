-- Builds a client on the virtual world and the fake service, with a players source the test drives.
local World = require("world")
local FakeService = require("fake_service")
local lib = require("core")

local Harness = {}

--- A deterministic stream of numbers in [0, 1) (Park-Miller, exact in doubles), so runs repeat exactly.
function Harness.sequence(seed)
	local state = seed
	return function()
		state = (state * 16807) % 2147483647
		return state / 2147483647
	end
end

function Harness.new(settings)
	settings = settings or {}
	local world = World.new()
	local service = FakeService.new(world, settings.staff or { ["1001"] = "staff-a", ["1002"] = "staff-b", ["1003"] = "staff-c" })
	local logs = {}
	local listeners = {}
	local here = settings.alreadyHere or {}
	local players = {
		list = function()
			return here
		end,
		onJoin = function(fn)
			listeners.join = fn
		end,
		onLeave = function(fn)
			listeners.leave = fn
		end,
	}
	local options = {
		baseUrl = FakeService.BASE_URL .. "/",
		apiKey = FakeService.API_KEY,
		serverId = "srv-1",
		universeId = 42,
		placeId = 7,
	}
	for name, value in pairs(settings.options or {}) do
		options[name] = value
	end
	local platform = {
		transport = service.transport,
		json = service.json,
		clock = world.clock,
		scheduler = world.scheduler,
		players = players,
		random = settings.random or Harness.sequence(7),
		log = function(level, message, fields)
			logs[#logs + 1] = { level = level, message = message, fields = fields }
		end,
	}
	local client = lib.Client.new(options, platform, lib)
	local h = { world = world, service = service, client = client, logs = logs, lib = lib }
	function h.join(userId)
		listeners.join(userId)
	end
	function h.leave(userId)
		listeners.leave(userId)
	end
	--- Runs a call that yields (an application call) on a scheduler thread, moving time on until it returns.
	function h.run(fn, limitSeconds)
		local box = world:go(fn)
		local waited = 0
		while not box.done and waited < (limitSeconds or 600) do
			world:advance(1)
			waited = waited + 1
		end
		assert(box.done, "the call did not return within " .. (limitSeconds or 600) .. " s")
		return box.value
	end
	function h.logged(pattern)
		local out = {}
		for _, entry in ipairs(logs) do
			if string.find(entry.message, pattern) then
				out[#out + 1] = entry
			end
		end
		return out
	end
	return h
end

--- A form like the ones a workspace provisions: long text, a number with bounds, a choice (optional).
function Harness.moderatorForm(changes)
	local form = {
		id = "7b0e4a52-3c1d-4f7e-9a61-2d5c8e9f0a13", name = "Moderator application", slug = "moderator",
		status = "open", cooldownDays = 14, questions = {
			{ id = "why", label = "Why do you want to join?", type = "long_text", required = true, maxLength = 2000 },
			{ id = "age", label = "How old are you?", type = "number", required = true, min = 13, max = 99 },
			{ id = "tz", label = "Time zone", type = "choice", options = { "EU", "NA", "Asia" } },
		},
	}
	for name, value in pairs(changes or {}) do
		form[name] = value
	end
	return form
end

--- A client that only takes applications (no shift tracking), started, with the moderator form served.
function Harness.applicationCentre(settings)
	settings = settings or {}
	local options = { trackShifts = false }
	for name, value in pairs(settings.options or {}) do
		options[name] = value
	end
	settings.options = options
	local h = Harness.new(settings)
	h.form = h.service.applications:addForm(Harness.moderatorForm(settings.form))
	h.client:start()
	return h
end

return Harness
