-- End-to-end scenario: the core, over real HTTP, drives a running gateway through joins (staff and not),
-- a 429 burst, batch heartbeats, a leave and a shutdown. Prints one JSON summary line on stdout.
--
-- Environment: GATEWAY_URL, GATEWAY_API_KEY, E2E_STAFF (comma-separated game user ids of active staff),
-- E2E_NOT_STAFF (a game user id with no staff profile), E2E_LEAVER (one of E2E_STAFF), E2E_UNIVERSE_ID.
local lib = require("core")
local SocketPlatform = require("socket_platform")
local json = require("dkjson")

local function env(name)
	local value = os.getenv(name)
	assert(value and value ~= "", "missing environment variable " .. name)
	return value
end

local staff = {}
for id in string.gmatch(env("E2E_STAFF"), "[^,]+") do
	staff[#staff + 1] = id
end
local notStaff, leaver = env("E2E_NOT_STAFF"), env("E2E_LEAVER")

local scheduler = SocketPlatform.scheduler()
local transport = SocketPlatform.transport(10)
local exchanges = {} -- { path, status, key, userId? }
local recording = {
	request = function(request)
		local response, failure = transport.request(request)
		local body = request.body and json.decode(request.body) or {}
		exchanges[#exchanges + 1] = {
			path = string.match(request.url, "^https?://[^/]+(.*)$"),
			status = response and response.status or 0,
			key = request.headers["Idempotency-Key"],
			userId = body.gameUserId,
		}
		return response, failure
	end,
}
local logs = {}
local listeners = {}
local client = lib.Client.new({
	baseUrl = env("GATEWAY_URL"),
	apiKey = env("GATEWAY_API_KEY"),
	serverId = "e2e-server-1",
	universeId = env("E2E_UNIVERSE_ID"),
	placeId = "7",
	heartbeatIntervalSeconds = 1,
	requestsPerMinute = 600,
	retryBaseSeconds = 0.2,
	retryMaxSeconds = 2,
	shutdownTimeoutSeconds = 20,
}, {
	transport = recording,
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

local function waitFor(what, limit, condition)
	local giveUpAt = SocketPlatform.clock.monotonic() + limit
	while not condition() do
		if SocketPlatform.clock.monotonic() > giveUpAt then
			error("timed out waiting for " .. what, 0)
		end
		scheduler.sleep(0.05)
	end
end

local function countLogs(message, predicate, since)
	local n = 0
	for i = (since or 0) + 1, #logs do
		local entry = logs[i]
		if entry.message == message and (not predicate or predicate(entry.fields)) then
			n = n + 1
		end
	end
	return n
end

local function activeCount()
	local n = 0
	for _, entry in pairs(client:status().tracked) do
		if entry.state == "active" then
			n = n + 1
		end
	end
	return n
end

local summary = scheduler.run(function()
	client:start()
	-- One burst: every start at once, more than the gateway's per-second limit allows.
	for _, id in ipairs(staff) do
		listeners.join(id)
	end
	listeners.join(notStaff)
	waitFor("every staff shift to start", 30, function()
		return activeCount() == #staff and client:status().notStaff[notStaff] ~= nil
	end)
	local shifts = {}
	for key, entry in pairs(client:status().tracked) do
		shifts[key] = entry.shiftId
	end
	local full = function(fields)
		return fields.applied == #staff
	end
	waitFor("two full heartbeat batches", 30, function()
		return countLogs("heartbeat batch applied", full) >= 2
	end)
	local leftAt = #logs
	listeners.leave(leaver)
	waitFor("the leaver's stop", 30, function()
		return countLogs("shift stopped", function(fields)
			return fields.gameUserId == leaver
		end) == 1
	end)
	listeners.leave(notStaff)
	listeners.join(notStaff) -- remembered as not staff: no request
	local rest = function(fields)
		return fields.applied == #staff - 1 and fields.shifts == #staff - 1
	end
	waitFor("a heartbeat batch without the leaver", 30, function()
		return countLogs("heartbeat batch applied", rest, leftAt) >= 1
	end)
	local shutdown = client:shutdown()

	local throttledKeys, retriedAfter429, saw429 = {}, false, false
	local notStaffKeys, notStaffStarts = {}, 0
	for _, exchange in ipairs(exchanges) do
		if exchange.status == 429 then
			saw429 = true
			throttledKeys[exchange.key] = true
		elseif exchange.status ~= 0 and throttledKeys[exchange.key] then
			retriedAfter429 = true -- answered (2xx, or 404 for the player who is not staff) under the same key
		end
		if exchange.userId == notStaff and not notStaffKeys[exchange.key] then
			notStaffKeys[exchange.key] = true -- retries of one start share its key
			notStaffStarts = notStaffStarts + 1
		end
	end
	local messages = {}
	for _, entry in ipairs(logs) do
		local line = entry.level .. " " .. entry.message
		for name, value in pairs(entry.fields) do
			line = line .. " " .. name .. "=" .. tostring(value)
		end
		messages[#messages + 1] = line
	end
	return {
		shifts = shifts,
		leaver = leaver,
		saw429 = saw429,
		retriedAfter429 = retriedAfter429,
		notStaff = client:status().notStaff,
		notStaffStarts = notStaffStarts,
		fullHeartbeatBatches = countLogs("heartbeat batch applied", full),
		shutdown = shutdown,
		requests = #exchanges,
		logs = messages,
	}
end, 120)

io.write(json.encode(summary), "\n")
