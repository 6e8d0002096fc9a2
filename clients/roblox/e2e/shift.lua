-- End-to-end scenario of one staff member's shift: the core, over real HTTP, sees the player join (the shift
-- starts), sends batch heartbeats while the player stays, sees the player leave (the shift stops) and shuts
-- down. It asserts nothing: it prints one JSON summary line on stdout for the caller to check.
--
-- Environment: GATEWAY_URL, GATEWAY_API_KEY (scope activity:write), E2E_UNIVERSE_ID, E2E_GAME_USER_ID (a staff
-- member's game user id); optional E2E_SHIFT_SECONDS (default 2), how long the player stays.
-- Run from clients/roblox with LUA_PATH="src/WorkspaceGateway/Core/?.lua;spec/support/?.lua;e2e/?.lua;;".
local lib = require("core")
local SocketPlatform = require("socket_platform")
local json = require("dkjson")

local function env(name, default)
	local value = os.getenv(name)
	if value == nil or value == "" then
		assert(default, "missing environment variable " .. name)
		return default
	end
	return value
end

local gameUserId = env("E2E_GAME_USER_ID")
local stay = tonumber(env("E2E_SHIFT_SECONDS", "2"))

local scheduler = SocketPlatform.scheduler()
local logs = {}
local listeners = {}
local client = lib.Client.new({
	baseUrl = env("GATEWAY_URL"),
	apiKey = env("GATEWAY_API_KEY"),
	serverId = "e2e-shift-server",
	universeId = env("E2E_UNIVERSE_ID"),
	placeId = "7",
	heartbeatIntervalSeconds = 1,
	requestsPerMinute = 600,
	retryBaseSeconds = 0.2,
	retryMaxSeconds = 2,
}, {
	transport = SocketPlatform.transport(10),
	json = SocketPlatform.json,
	clock = SocketPlatform.clock,
	scheduler = scheduler,
	players = {
		list = function()
			return {}
		end,
		onJoin = function(fn)
			listeners.join = fn
		end,
		onLeave = function(fn)
			listeners.leave = fn
		end,
	},
	log = function(level, message, fields)
		logs[#logs + 1] = { level = level, message = message, fields = fields }
	end,
}, lib)

local function logged(message)
	local found = {}
	for _, entry in ipairs(logs) do
		if entry.message == message then
			found[#found + 1] = entry.fields
		end
	end
	return found
end

local function waitFor(what, limit, condition)
	local giveUpAt = SocketPlatform.clock.monotonic() + limit
	while not condition() do
		if SocketPlatform.clock.monotonic() > giveUpAt then
			error("timed out waiting for " .. what, 0)
		end
		scheduler.sleep(0.05)
	end
end

local summary = scheduler.run(function()
	client:start()
	listeners.join(gameUserId)
	waitFor("the shift to start", 30, function()
		local entry = client:status().tracked[gameUserId]
		return (entry and entry.state == "active") or client:status().notStaff[gameUserId] ~= nil
	end)
	local entry = client:status().tracked[gameUserId]
	local shiftId = entry and entry.shiftId or nil
	if shiftId then
		scheduler.sleep(stay)
		waitFor("a heartbeat batch", 30, function()
			return #logged("heartbeat batch applied") >= 1
		end)
		listeners.leave(gameUserId)
		waitFor("the stop", 30, function()
			return #logged("shift stopped") + #logged("shift had already ended") >= 1
		end)
	end
	local shutdown = client:shutdown()
	local messages = {}
	for _, line in ipairs(logs) do
		local text = line.level .. " " .. line.message
		for name, value in pairs(line.fields) do
			text = text .. " " .. name .. "=" .. tostring(value)
		end
		messages[#messages + 1] = text
	end
	local stopped = logged("shift stopped")[1]
	return {
		gameUserId = gameUserId,
		shiftId = shiftId,
		notStaff = client:status().notStaff[gameUserId],
		heartbeatBatches = #logged("heartbeat batch applied"),
		stopped = stopped and { shiftId = stopped.shiftId, reason = stopped.reason } or nil,
		shutdown = shutdown,
		logs = messages,
	}
end, 120)

io.write(json.encode(summary), "\n")
