-- A real platform for plain Lua 5.1: HTTP through LuaSocket, a wall clock, and a scheduler that runs
-- coroutines from one event loop (sleeping for real between wake-ups). Used by the end-to-end test.
local http = require("socket.http")
local ltn12 = require("ltn12")
local socket = require("socket")
local json = require("dkjson")

local SocketPlatform = {}

--- transport.request over socket.http; a failure (refused, timeout) comes back as (nil, text).
function SocketPlatform.transport(timeoutSeconds)
	return {
		request = function(request)
			local chunks = {}
			local headers = {}
			for name, value in pairs(request.headers) do
				headers[name] = value
			end
			if request.body then
				headers["Content-Length"] = tostring(#request.body)
			end
			http.TIMEOUT = timeoutSeconds or 10
			local ok, status, responseHeaders = http.request({
				url = request.url,
				method = request.method,
				headers = headers,
				source = request.body and ltn12.source.string(request.body) or nil,
				sink = ltn12.sink.table(chunks),
			})
			if not ok or type(status) ~= "number" then
				return nil, tostring(status)
			end
			return { status = status, headers = responseHeaders, body = table.concat(chunks) }
		end,
	}
end

SocketPlatform.json = {
	encode = function(value)
		return (json.encode(value))
	end,
	decode = function(text)
		return (json.decode(text))
	end,
}

SocketPlatform.clock = {
	monotonic = socket.gettime,
	unixMillis = function()
		return math.floor(socket.gettime() * 1000)
	end,
}

--- A scheduler plus run(main): runs `main` on a thread and the loop until it returns (or `limit` seconds).
function SocketPlatform.scheduler()
	local sleepers, seq = {}, 0
	local function resume(thread)
		local ok, err = coroutine.resume(thread)
		if not ok then
			error(debug.traceback(thread, tostring(err)), 0)
		end
	end
	local scheduler = {}
	function scheduler.spawn(fn)
		resume(coroutine.create(fn))
	end
	function scheduler.sleep(seconds)
		local thread = coroutine.running()
		assert(thread, "sleep called outside a scheduler thread")
		seq = seq + 1
		sleepers[#sleepers + 1] = { thread = thread, at = socket.gettime() + math.max(0, seconds), seq = seq }
		coroutine.yield()
	end
	function scheduler.run(main, limit)
		local done, result = false, nil
		scheduler.spawn(function()
			result = main()
			done = true
		end)
		local stopAt = socket.gettime() + limit
		while not done do
			local best, index
			for i, sleeper in ipairs(sleepers) do
				if not best or sleeper.at < best.at or (sleeper.at == best.at and sleeper.seq < best.seq) then
					best, index = sleeper, i
				end
			end
			if not best then
				error("the scenario waits for nothing that can wake it", 0)
			end
			if best.at > stopAt then
				error("the scenario did not finish within " .. limit .. " s", 0)
			end
			local wait = best.at - socket.gettime()
			if wait > 0 then
				socket.sleep(wait)
			end
			table.remove(sleepers, index)
			resume(best.thread)
		end
		return result
	end
	return scheduler
end

return SocketPlatform
