-- A fake of the gateway's shift endpoints behind a fake transport, enough to drive the client: staff
-- lookup, start, single stop, batch heartbeat, server stop, plus scripted failures. Records every request.
local json = require("dkjson")

local FakeService = {}
FakeService.__index = FakeService

FakeService.BASE_URL = "https://gateway.test"
FakeService.API_KEY = "wsk_test_0123456789abcdefghijABCDEFGHIJxyz"

function FakeService.new(world, staff)
	local self = setmetatable({
		world = world, staff = staff or {}, shifts = {}, nextId = 1, requests = {}, scripted = {},
		latency = 0, requestIds = 0,
	}, FakeService)
	self.transport = {
		request = function(request)
			return self:_handle(request)
		end,
	}
	self.json = { encode = function(v) return (json.encode(v)) end, decode = function(t) return (json.decode(t)) end }
	return self
end

--- The next `count` requests whose path matches `pattern` get `response` ({ status, body?, headers? } or
--- { failure = "text" } for a transport failure) instead of the normal answer.
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

function FakeService:_handle(request)
	local path = string.sub(request.url, #FakeService.BASE_URL + 1)
	local record = {
		method = request.method, url = request.url, path = path, headers = request.headers,
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
	response = response or self:_route(record)
	record.status = response.status
	if response.failure then
		return nil, response.failure
	end
	self.requestIds = self.requestIds + 1
	local headers = { ["X-Request-Id"] = "req_" .. self.requestIds }
	for name, value in pairs(response.headers or {}) do
		headers[name] = value
	end
	return { status = response.status, headers = headers, body = response.body and json.encode(response.body) or "" }
end

return FakeService
