-- A virtual world for unit tests: a clock that only moves when the test says so, and a scheduler whose
-- threads are coroutines woken in time order. Nothing real sleeps.
local World = {}
World.__index = World

function World.new(startUnixMillis)
	local self = setmetatable({ now = 0, startMillis = startUnixMillis or 1795000000000, sleepers = {}, seq = 0 }, World)
	self.clock = {
		monotonic = function()
			return self.now
		end,
		unixMillis = function()
			return self.startMillis + math.floor(self.now * 1000)
		end,
	}
	self.scheduler = {
		spawn = function(fn)
			self:_resume(coroutine.create(fn))
		end,
		sleep = function(seconds)
			local thread = coroutine.running()
			assert(thread, "sleep called outside a scheduler thread")
			self.seq = self.seq + 1
			self.sleepers[#self.sleepers + 1] = { thread = thread, at = self.now + math.max(0, seconds), seq = self.seq }
			coroutine.yield()
		end,
	}
	return self
end

function World:_resume(thread)
	local ok, err = coroutine.resume(thread)
	if not ok then
		error(debug.traceback(thread, tostring(err)), 0)
	end
end

--- Runs `fn` on a new thread (for calls that yield, such as shutdown) and returns a box with its result.
function World:go(fn)
	local box = { done = false }
	self.scheduler.spawn(function()
		box.value = fn()
		box.done = true
	end)
	return box
end

--- Moves time forward by `seconds`, waking every sleeper that is due, in order.
function World:advance(seconds)
	local target = self.now + seconds
	while true do
		local best, index
		for i, sleeper in ipairs(self.sleepers) do
			if sleeper.at <= target and (not best or sleeper.at < best.at or (sleeper.at == best.at and sleeper.seq < best.seq)) then
				best, index = sleeper, i
			end
		end
		if not best then
			break
		end
		table.remove(self.sleepers, index)
		if best.at > self.now then
			self.now = best.at
		end
		self:_resume(best.thread)
	end
	self.now = target
end

return World
