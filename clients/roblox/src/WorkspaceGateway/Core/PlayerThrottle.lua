--[[
PlayerThrottle: a token bucket per player, so that no one player can spend the server's request budget (see
Budget). Each player holds up to `perMinute` calls and earns them back at `perMinute` a minute; a call when the
bucket is empty is refused at once, and says when the next one will be allowed.
]]

local PlayerThrottle = {}
PlayerThrottle.__index = PlayerThrottle

--- clock.monotonic() -> seconds.
function PlayerThrottle.new(perMinute, clock) -- (number, Clock) -> PlayerThrottle
	return setmetatable({ perMinute = perMinute, rate = perMinute / 60, clock = clock, buckets = {} }, PlayerThrottle)
end

--- Takes one call for `key` (a player's user id). Returns true, or false and the seconds until one is allowed.
function PlayerThrottle:take(key) -- (string) -> (boolean, number?)
	local now = self.clock.monotonic()
	local bucket = self.buckets[key]
	if not bucket then
		bucket = { tokens = self.perMinute, at = now }
		self.buckets[key] = bucket
	end
	bucket.tokens = math.min(self.perMinute, bucket.tokens + (now - bucket.at) * self.rate)
	bucket.at = now
	if bucket.tokens >= 1 then
		bucket.tokens = bucket.tokens - 1
		return true
	end
	return false, (1 - bucket.tokens) / self.rate
end

--- Drops a player's bucket (when they leave the server), so the table does not grow with every visitor.
function PlayerThrottle:forget(key) -- (string) -> ()
	self.buckets[key] = nil
end

return PlayerThrottle
