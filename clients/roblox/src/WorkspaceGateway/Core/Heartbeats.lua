--[[
Heartbeats: one batch heartbeat per interval for every active shift of the server (at most 200 shifts a
request), and what the per-shift results mean for the client's tracking.

A shift answered shift_not_active, not_found or server_mismatch is dropped; a player still here whose
shift the service ended (typically its heartbeat timeout, after a network loss) gets a new shift.
]]

local Heartbeats = {}

local SHIFTS_PER_BATCH = 200

local DROP_CODES = { shift_not_active = true, not_found = true, server_mismatch = true }

local function applyResults(client, results)
	local applied = 0
	for _, item in ipairs(results) do
		local entry = type(item) == "table" and client.byShift[item.shiftId] or nil
		if entry and type(item.shift) == "table" then
			entry.lastHeartbeatAt = item.shift.lastHeartbeatAt
			applied = applied + 1
		elseif entry then
			local code = type(item.error) == "table" and item.error.code or "unknown"
			local fields = { gameUserId = entry.userKey, shiftId = item.shiftId, code = code }
			if DROP_CODES[code] then
				client.byShift[item.shiftId] = nil
				client.entries[entry.userKey] = nil
				client.log("warn", "shift dropped: the service no longer accepts heartbeats for it", fields)
				if code == "shift_not_active" and client.present[entry.userKey] and not client.closing then
					-- Typically the service timed it out during a network loss: the player is still here, so a new shift begins.
					client:_startShift(entry.userKey)
				end
			else
				client.log("warn", "heartbeat not applied to a shift", fields)
			end
		end
	end
	client.log("debug", "heartbeat batch applied", { shifts = #results, applied = applied })
end

function Heartbeats.loop(client) -- (Client) -> ()
	local interval = client.config.heartbeatIntervalSeconds
	local nextAt = client:_now() + interval
	while not client.closing do
		local now = client:_now()
		if nextAt > now then
			client.scheduler.sleep(nextAt - now)
		end
		if client.closing then
			break
		end
		Heartbeats.beat(client)
		nextAt = nextAt + interval
		local after = client:_now()
		if nextAt <= after then
			-- A batch outlasted its interval (waiting for budget or Retry-After): skip the missed ticks.
			nextAt = after + interval
		end
	end
end

--- Sends the batch heartbeat(s) for every active shift now; starts again the shifts whose start gave up.
function Heartbeats.beat(client) -- (Client) -> ()
	for key in pairs(client.failedStarts) do
		client.failedStarts[key] = nil
		if client.present[key] and not client.entries[key] and not client.closing then
			client:_startShift(key)
		end
	end
	local ids = client:activeShiftIds()
	local first = 1
	while first <= #ids and not client.closing do
		local chunk = {}
		for i = first, math.min(#ids, first + SHIFTS_PER_BATCH - 1) do
			chunk[#chunk + 1] = ids[i]
		end
		first = first + SHIFTS_PER_BATCH
		local body = { serverId = client.config.serverId, shiftIds = chunk }
		if client.config.sendTimestamps then
			body.recordedAt = client:_timestamp()
		end
		-- A batch that cannot get through within its interval is left to the next one (which carries a newer time).
		local result = client.requester:call({
			method = "POST", path = "/v1/activity/shifts/heartbeats", body = body, label = "heartbeat",
			deadline = client:_now() + client.config.heartbeatIntervalSeconds,
		})
		local results = result.ok and type(result.data) == "table" and result.data.results or nil
		if type(results) == "table" then
			applyResults(client, results)
		else
			client.log("warn", "heartbeat batch failed; the next interval tries again", {
				shifts = #chunk, status = result.status, code = result.code, outcome = result.outcome,
			})
		end
	end
end

return Heartbeats
