--[[
Budget: at most `perMinute` requests in any 60-second window (a sliding log of send times).

Game servers share about 500 outgoing HTTP requests a minute with everything else the game does; the
client spends only the share it is configured with. Every attempt counts, retries included.
]]

local Budget = {}
Budget.__index = Budget

local WINDOW_SECONDS = 60

--- clock.monotonic() -> seconds; sleep(seconds) yields the calling thread.
function Budget.new(perMinute, clock, sleep) -- (number, Clock, (number) -> ()) -> Budget
	return setmetatable({ perMinute = perMinute, clock = clock, sleep = sleep, sent = {} }, Budget)
end

function Budget:_prune(now)
	local sent = self.sent
	local keep = 1
	while sent[keep] and sent[keep] <= now - WINDOW_SECONDS do
		keep = keep + 1
	end
	if keep > 1 then
		local kept = {}
		for i = keep, #sent do
			kept[#kept + 1] = sent[i]
		end
		self.sent = kept
	end
end

--- Requests still allowed right now.
function Budget:remaining() -- () -> number
	self:_prune(self.clock.monotonic())
	return self.perMinute - #self.sent
end

--- Spends one request, waiting for the window to free one. Returns false (spending nothing) when that
--- would mean waiting past `deadline` (monotonic seconds; nil waits as long as needed).
function Budget:acquire(deadline) -- (number?) -> boolean
	while true do
		local now = self.clock.monotonic()
		self:_prune(now)
		if #self.sent < self.perMinute then
			self.sent[#self.sent + 1] = now
			return true
		end
		local freeAt = self.sent[1] + WINDOW_SECONDS
		if deadline and freeAt > deadline then
			return false
		end
		self.sleep(freeAt - now)
	end
end

return Budget
