-- A fake of the gateway behind a fake transport, enough to drive the client: staff lookup, start, single
-- stop, batch heartbeat, server stop, the application endpoints (fake_applications), the replay of a POST
-- repeated under its Idempotency-Key, plus scripted failures. Records every request.
local json = require("dkjson")
local FakeApplications = require("fake_applications")

local FakeService = {}
FakeService.__index = FakeService

FakeService.BASE_URL = "https://gateway.test"
FakeService.API_KEY = "wsk_test_0123456789abcdefghijABCDEFGHIJxyz"

function FakeService.new(world, staff)
	local self = setmetatable({
		world = world, staff = staff or {}, shifts = {}, nextId = 1, requests = {}, scripted = {},
		latency = 0, requestIds = 0, replays = {},
	}, FakeService)
	self.applications = FakeApplications.new(world)
	self.transport = {
		request = function(request)
			return self:_handle(request)
		end,
	}
	self.json = { encode = function(v) return (json.encode(v)) end, decode = function(t) return (json.decode(t)) end }
	return self
end

--- The next `count` requests whose path matches `pattern` get `response` ({ status, body?, headers? } or
--- { failure = "text" } for a transport failure) instead of the normal answer. { failure = "text",
--- processed = true }: the service handles the request, but its answer is lost on the way back.
function FakeService:script(pattern, response, count)
	self.scripted[#self.scripted + 1] = { pattern = pattern, response = response, left = count or 1 }
end

function FakeService:requestsTo(pattern)
	local out = {}
	for _, request in ipairs(self.requests) do
		if string.find(request.path, pattern) then
			out[#out + 1] = request
		end
	end
	return out
end

local function answer(status, data)
	return { status = status, body = { data = data } }
end

local function refuse(status, code, message)
	return { status = status, body = { error = { code = code, message = message or code, requestId = "req_fake" } } }
end

function FakeService:_route(request)
	local path, body = request.path, request.body or {}
	local application = self.applications:route(request)
	if application then
		return application
	end
	if path == "/v1/activity/shifts/start" then
		local staffId = self.staff[body.gameUserId]
		if not staffId then
			return refuse(404, "not_found")
		end
		if staffId == "inactive" then
			return refuse(403, "staff_inactive")
		end
		for _, shift in pairs(self.shifts) do
			if shift.gameUserId == body.gameUserId and shift.status == "active" then
				return answer(200, { shift = { id = shift.id, status = "active" }, existing = true })
			end
		end
		local id = string.format("shift-%03d", self.nextId)
		self.nextId = self.nextId + 1
		self.shifts[id] = { id = id, gameUserId = body.gameUserId, serverId = body.serverId, status = "active", heartbeats = 0 }
		return answer(200, { shift = { id = id, status = "active", startedAt = body.startedAt }, existing = false })
	end
	if path == "/v1/activity/shifts/heartbeats" then
		local results = {}
		for _, id in ipairs(body.shiftIds) do
			local shift = self.shifts[id]
			if not shift then
				results[#results + 1] = { shiftId = id, error = { code = "not_found", message = "no such shift" } }
			elseif shift.status ~= "active" then
				results[#results + 1] = { shiftId = id, error = { code = "shift_not_active", message = "ended" } }
			else
				shift.heartbeats = shift.heartbeats + 1
				results[#results + 1] = { shiftId = id, shift = { id = id, status = "active", lastHeartbeatAt = body.recordedAt } }
			end
		end
		return answer(200, { results = results })
	end
	local stopId = string.match(path, "^/v1/activity/shifts/([^/]+)/stop$")
	if stopId then
		local shift = self.shifts[stopId]
		if not shift then
			return refuse(404, "not_found")
		end
		if shift.status ~= "active" then
			return refuse(409, "shift_not_active")
		end
		shift.status, shift.endReason = "completed", body.reason
		return answer(200, { shift = { id = stopId, status = "completed", endReason = body.reason, minutes = 0 } })
	end
	local serverId = string.match(path, "^/v1/activity/servers/([^/]+)/stop$")
	if serverId then
		local stopped = {}
		for _, shift in pairs(self.shifts) do
			if shift.status == "active" and shift.serverId == serverId then
				shift.status, shift.endReason = "completed", body.reason or "server_shutdown"
				stopped[#stopped + 1] = { id = shift.id, status = "completed", endReason = shift.endReason }
			end
		end
		return answer(200, { shifts = stopped })
	end
	return refuse(404, "not_found", "unknown route")
end

-- The routed answer, with the service's idempotency: a POST needs a key; a POST repeated under its key gets
-- the first answer again (a different request under that key: 422); 5xx answers are not kept.
function FakeService:_answer(record)
	if record.method ~= "POST" then
		return self:_route(record)
	end
	local key = record.headers["Idempotency-Key"]
	if not key or key == "" then
		return refuse(400, "idempotency_key_required")
	end
	local kept = self.replays[key]
	if kept then
		if kept.path ~= record.path or kept.rawBody ~= record.rawBody then
			return refuse(422, "idempotency_key_reused")
		end
		record.replayed = true
		local headers = { ["Idempotent-Replayed"] = "true" }
		return { status = kept.response.status, body = kept.response.body, headers = headers }
	end
	local response = self:_route(record)
	if response.status < 500 then
		self.replays[key] = { path = record.path, rawBody = record.rawBody, response = response }
	end
	return response
end

function FakeService:_handle(request)
	local path = string.sub(request.url, #FakeService.BASE_URL + 1)
	local headers = {} -- a copy: what was sent with this attempt, whatever the caller does with its table later
	for name, value in pairs(request.headers or {}) do
		headers[name] = value
	end
	local record = {
		method = request.method, url = request.url, path = path, headers = headers,
		rawBody = request.body, body = request.body and json.decode(request.body) or nil, at = self.world.now,
	}
	self.requests[#self.requests + 1] = record
	if self.latency > 0 then
		self.world.scheduler.sleep(self.latency)
	end
	local response
	for i, scripted in ipairs(self.scripted) do
		if string.find(path, scripted.pattern) then
			response = scripted.response
			scripted.left = scripted.left - 1
			if scripted.left <= 0 then
				table.remove(self.scripted, i)
			end
			break
		end
	end
	if not response or response.processed then
		local answered = self:_answer(record)
		response = response or answered
	end
	record.status = response.status
	if response.failure then
		return nil, response.failure
	end
	self.requestIds = self.requestIds + 1
	local answerHeaders = { ["X-Request-Id"] = "req_" .. self.requestIds }
	for name, value in pairs(response.headers or {}) do
		answerHeaders[name] = value
	end
	return { status = response.status, headers = answerHeaders, body = response.body and json.encode(response.body) or "" }
end

return FakeService
