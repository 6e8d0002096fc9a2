--[[
Client: tracks the shifts of the staff members on one game server.

- A player joins: start a shift. 404 means "not a staff member": remembered, never asked again on this server.
- Every heartbeatIntervalSeconds: ONE batch heartbeat for all active shifts of the server (200 per request).
  A shift the service answers shift_not_active, not_found or server_mismatch for is dropped (and, for a
  player still here whose shift the service timed out, a new shift is started).
- A player leaves: stop the shift with reason player_left.
- shutdown(): one server stop (reason server_shutdown) for every shift of the server, within
  shutdownTimeoutSeconds.
- getForm, submitApplication, applicationStatus: an in-game application centre's calls (see Applications).
  With trackShifts = false the client makes only those: no players source, no heartbeats.

The core touches no platform global: the caller hands in the transport, JSON codec, clock, scheduler,
players source and log hook (`platform`), and the sibling modules (`lib`), so the same code runs on the
game platform and under plain Lua 5.1. Threads only ever yield through scheduler.sleep or the transport.
]]

local Client = {}
Client.__index = Client

local function idText(value) -- (string | number) -> string
	if type(value) == "number" then
		return string.format("%.0f", value)
	end
	return tostring(value)
end

local function urlEncode(text) -- (string) -> string
	return (string.gsub(text, "[^%w%-%._~]", function(char)
		return string.format("%%%02X", string.byte(char))
	end))
end

-- Idempotency keys unique by construction, even where the random source is unseeded (plain Lua's
-- math.random repeats its sequence in every process): server, wall-clock milliseconds, a counter, then noise.
local function defaultKeyMaker(random, clock, serverId) -- (() -> number, Clock, string) -> () -> string
	local server = string.sub(string.gsub(serverId, "[^%w%-]", "_"), 1, 64)
	local counter = 0
	return function()
		counter = counter + 1
		local noise = {}
		for i = 1, 8 do
			noise[i] = string.format("%x", math.floor(random() * 16) % 16)
		end
		return string.format("wsg-%s-%.0f-%d-%s", server, clock.unixMillis(), counter, table.concat(noise))
	end
end

--[[
options: see Config (baseUrl, apiKey or authorization, serverId, universeId, placeId, and the tunables).
platform:
  transport.request({ method, url, headers, body? }) -> { status, headers, body } | (nil, failureText)
      never raises; may yield.
  json.encode(table) -> string, json.decode(string) -> table (may raise; the core guards it)
  clock.monotonic() -> seconds (any origin), clock.unixMillis() -> milliseconds since 1970
  scheduler.spawn(fn) runs fn on a new thread now; scheduler.sleep(seconds) yields the calling thread
  players (optional): list() -> { userId }, onJoin(fn(userId)), onLeave(fn(userId))
  random (optional): () -> number in [0, 1); newKey (optional): () -> unique Idempotency-Key text
  log (optional): (level, message, fields) -> ()
lib: { Config, Time, Retry, Budget, Requester, Log, Heartbeats, Applications, PlayerThrottle?, ApplicationCentre? }
  (the sibling modules, handed in by the loader; the last two for client:applicationCentre)
]]
function Client.new(options, platform, lib) -- ({[string]: any}, Platform, Lib) -> Client
	local config = lib.Config.resolve(options)
	local self = setmetatable({}, Client)
	self.config = config
	self.clock = platform.clock
	self.scheduler = platform.scheduler
	self.players = platform.players
	self.Time = lib.Time
	self.Heartbeats = lib.Heartbeats
	self.Applications = lib.Applications
	self.ApplicationCentre = lib.ApplicationCentre
	self.PlayerThrottle = lib.PlayerThrottle
	self.json = platform.json
	local random = platform.random or math.random
	local secret = options.apiKey
	self.log = lib.Log.new(platform.log or options.log, secret)
	local sleep = function(seconds)
		platform.scheduler.sleep(seconds)
	end
	self.budget = lib.Budget.new(config.requestsPerMinute, platform.clock, sleep)
	self.requester = lib.Requester.new({
		config = config, transport = platform.transport, json = platform.json, clock = platform.clock,
		sleep = sleep, random = random, newKey = platform.newKey or defaultKeyMaker(random, platform.clock, config.serverId),
		log = self.log, budget = self.budget, Retry = lib.Retry, Time = lib.Time,
	})
	self.entries = {} -- userKey -> { userKey, state = "starting" | "active" | "stopping", shiftId?, restart? }
	self.byShift = {} -- shiftId -> entry, for active shifts only
	self.present = {} -- userKey -> true while the player is on this server
	self.notStaff = {} -- userKey -> "not_staff" | "staff_inactive"
	self.failedStarts = {} -- userKey -> true: a start that gave up; tried again at the next heartbeat tick
	self.pending = 0 -- start and stop requests in flight
	self.everStarted = false
	self.closing = false
	self.serverStopBegun = false
	return self
end

function Client:_now()
	return self.clock.monotonic()
end

function Client:_timestamp()
	return self.Time.isoFromUnixMillis(self.clock.unixMillis())
end

--- Subscribes to the players source (when given), takes in the players already here, starts heartbeating.
--- With trackShifts = false it does none of that: the client only serves the application calls.
function Client:start() -- () -> Client
	if self.started then
		return self
	end
	self.started = true
	if not self.config.trackShifts then
		self.log("info", "workspace gateway client started without shift tracking", {
			requestsPerMinute = self.config.requestsPerMinute,
		})
		return self
	end
	local players = self.players
	if players then
		players.onJoin(function(userId)
			self:playerJoined(userId)
		end)
		players.onLeave(function(userId)
			self:playerLeft(userId)
		end)
		for _, userId in ipairs(players.list()) do
			self:playerJoined(userId)
		end
	end
	self.scheduler.spawn(function()
		self.Heartbeats.loop(self)
	end)
	self.log("info", "workspace gateway client started", {
		serverId = self.config.serverId, heartbeatIntervalSeconds = self.config.heartbeatIntervalSeconds,
		requestsPerMinute = self.config.requestsPerMinute,
	})
	return self
end

--- A player joined (called by the players source, or directly).
function Client:playerJoined(userId) -- (string | number) -> ()
	local key = idText(userId)
	self.present[key] = true
	if self.closing or not self.config.trackShifts or self.notStaff[key] then
		return
	end
	local entry = self.entries[key]
	if entry then
		if entry.state == "stopping" then
			entry.restart = true
		end
		return
	end
	self:_startShift(key)
end

--- A player left (called by the players source, or directly).
function Client:playerLeft(userId) -- (string | number) -> ()
	local key = idText(userId)
	self.present[key] = nil
	local entry = self.entries[key]
	if not entry then
		return
	end
	entry.restart = nil
	-- While closing, the server stop covers active shifts; a start still in flight is handled when it lands.
	if entry.state == "active" and not self.closing then
		self:_stopShift(entry, "player_left")
	end
end

function Client:_startShift(key)
	self.failedStarts[key] = nil
	local entry = { userKey = key, state = "starting" }
	self.entries[key] = entry
	self.pending = self.pending + 1
	local config = self.config
	local body = { gameUserId = key, universeId = config.universeId, placeId = config.placeId, serverId = config.serverId }
	if config.sendTimestamps then
		body.startedAt = self:_timestamp()
	end
	self.scheduler.spawn(function()
		local result = self.requester:call({
			method = "POST", path = "/v1/activity/shifts/start", body = body, label = "start",
			deadline = self:_now() + config.requestDeadlineSeconds,
		})
		self.pending = self.pending - 1
		self:_started(entry, result)
	end)
end

function Client:_started(entry, result)
	local key = entry.userKey
	local shift = result.ok and type(result.data) == "table" and result.data.shift or nil
	if shift and shift.id then
		entry.shiftId = shift.id
		entry.state = "active"
		self.byShift[shift.id] = entry
		self.everStarted = true
		self.log("info", "shift started", { gameUserId = key, shiftId = shift.id, existing = result.data.existing == true })
		if self.closing then
			if self.serverStopBegun then
				self:_stopShift(entry, "server_shutdown")
			end
		elseif not self.present[key] then
			self:_stopShift(entry, "player_left")
		end
		return
	end
	self.entries[key] = nil
	if result.status == 404 then
		self.notStaff[key] = "not_staff"
		self.log("debug", "player is not a staff member; not asked again on this server", { gameUserId = key })
	elseif result.code == "staff_inactive" then
		self.notStaff[key] = "staff_inactive"
		self.log("info", "staff member is inactive; no shift on this server", { gameUserId = key })
	elseif result.outcome ~= "answered" or not result.status or result.status >= 500 or result.status == 429 then
		-- Transient (network, overload, budget): try again at the next interval while the player is here.
		self.failedStarts[key] = true
		self.log("warn", "shift not started; tried again at the next heartbeat interval", {
			gameUserId = key, status = result.status, code = result.code, outcome = result.outcome,
		})
	else
		-- Refused for good (a revoked key, a universe not allowed, the feature off): asking again changes nothing.
		self.log("error", "shift not started: the service refused it", {
			gameUserId = key, status = result.status, code = result.code,
		})
	end
end

function Client:_stopShift(entry, reason)
	entry.state = "stopping"
	self.byShift[entry.shiftId] = nil
	self.pending = self.pending + 1
	local body = { reason = reason }
	if self.config.sendTimestamps then
		body.endedAt = self:_timestamp()
	end
	self.scheduler.spawn(function()
		local result = self.requester:call({
			method = "POST", path = "/v1/activity/shifts/" .. urlEncode(entry.shiftId) .. "/stop", body = body,
			label = "stop", deadline = self:_now() + self.config.requestDeadlineSeconds,
		})
		self.pending = self.pending - 1
		local fields = { gameUserId = entry.userKey, shiftId = entry.shiftId, reason = reason }
		if result.ok then
			local shift = type(result.data) == "table" and result.data.shift or {}
			fields.minutes = shift.minutes
			self.log("info", "shift stopped", fields)
		elseif result.code == "shift_not_active" or result.status == 404 then
			self.log("info", "shift had already ended", fields)
		else
			fields.status, fields.code, fields.outcome = result.status, result.code, result.outcome
			self.log("warn", "shift stop failed; the service's heartbeat timeout will end it", fields)
		end
		if self.entries[entry.userKey] == entry then
			self.entries[entry.userKey] = nil
		end
		if entry.restart and self.present[entry.userKey] and not self.closing then
			self:_startShift(entry.userKey)
		end
	end)
end

--- Active shift ids, in a stable order.
function Client:activeShiftIds() -- () -> { string }
	local ids = {}
	for shiftId in pairs(self.byShift) do
		ids[#ids + 1] = shiftId
	end
	table.sort(ids)
	return ids
end

--- Sends the batch heartbeat(s) for every active shift now (the loop calls this once per interval).
function Client:heartbeatNow() -- () -> ()
	self.Heartbeats.beat(self)
end

--- Stops every shift of the server (one request) and waits for requests in flight, all within
--- shutdownTimeoutSeconds. Yields; call it from the platform's shutdown hook. Returns { ok, stopped }.
function Client:shutdown() -- () -> { ok: boolean, stopped: number }
	if self.closing then
		while not self.shutdownResult do
			self.scheduler.sleep(0.1)
		end
		return self.shutdownResult
	end
	self.closing = true
	local deadline = self:_now() + self.config.shutdownTimeoutSeconds
	self.requester:capDeadline(deadline)
	local outcome = { ok = true, stopped = 0 }
	if self.everStarted or next(self.entries) ~= nil then
		self.serverStopBegun = true
		local body = { reason = "server_shutdown" }
		if self.config.sendTimestamps then
			body.endedAt = self:_timestamp()
		end
		local result = self.requester:call({
			method = "POST", path = "/v1/activity/servers/" .. urlEncode(self.config.serverId) .. "/stop",
			body = body, label = "server stop", deadline = deadline,
		})
		local shifts = result.ok and type(result.data) == "table" and result.data.shifts or nil
		outcome.ok = shifts ~= nil
		outcome.stopped = shifts and #shifts or 0
		for shiftId, entry in pairs(self.byShift) do
			self.byShift[shiftId] = nil
			if self.entries[entry.userKey] == entry then
				self.entries[entry.userKey] = nil
			end
		end
		self.log(outcome.ok and "info" or "warn", outcome.ok and "server stopped its shifts"
			or "server stop failed; the service's heartbeat timeout will end the shifts", {
			stopped = outcome.stopped, status = result.status, code = result.code, outcome = result.outcome,
		})
	end
	-- Starts still in flight stop their shift themselves when they land; give them the rest of the time.
	while self.pending > 0 and self:_now() < deadline do
		self.scheduler.sleep(math.min(0.25, deadline - self:_now()))
	end
	self.shutdownResult = outcome
	return outcome
end

-- The application calls are not tail calls, so that an argument error points at the game's code.

--- The form (with its questions) the game shows an applicant. Yields. See Applications for the result.
function Client:getForm(formId) -- (string) -> ApplicationResult
	local result = self.Applications.getForm(self, formId)
	return result
end

--- Submits an applicant's answers to a form; retries under one Idempotency-Key. Yields.
--- applicant: { gameUserId, gameUsername?, displayName?, chatUserId? }; answers: { [questionId] = value }.
function Client:submitApplication(formId, applicant, answers) -- (string, table, table) -> ApplicationResult
	local result = self.Applications.submit(self, formId, applicant, answers)
	return result
end

--- The applicant's submissions (id, formId, formName, status, createdAt, decidedAt), newest first. Yields.
function Client:applicationStatus(gameUserId) -- (string | number) -> ApplicationResult
	local result = self.Applications.status(self, gameUserId)
	return result
end

--- RemoteFunction handlers for an in-game application centre, each player throttled to `callsPerMinute`
--- (see ApplicationCentre). options: { formId, callsPerMinute? }.
function Client:applicationCentre(options) -- (table) -> ApplicationCentre
	local centre = self.ApplicationCentre.new(self, options, self.PlayerThrottle)
	return centre
end

--- What the client tracks now (for an admin command or a test): { [userKey] = { state, shiftId? } }, notStaff.
function Client:status() -- () -> { tracked: {[string]: {state: string, shiftId: string?}}, notStaff: {[string]: string}, closing: boolean }
	local tracked = {}
	for key, entry in pairs(self.entries) do
		tracked[key] = { state = entry.state, shiftId = entry.shiftId }
	end
	local notStaff = {}
	for key, why in pairs(self.notStaff) do
		notStaff[key] = why
	end
	return { tracked = tracked, notStaff = notStaff, closing = self.closing }
end

return Client
