--[[
Log: the client's one logging hook, with credentials scrubbed from everything it is handed.

The core never passes headers to the hook; the scrubbing is the second line of defence, for text that
comes from elsewhere (a transport's error message that quotes a header, for instance).
]]

local Log = {}

local LEVELS = { debug = true, info = true, warn = true, error = true }

local function escapePattern(text)
	return (string.gsub(text, "[%^%$%(%)%%%.%[%]%*%+%-%?]", "%%%0"))
end

--- A scrubber that removes `secret` (when it is a string), any "wsk_..." key and any bearer token.
function Log.scrubber(secret) -- (any) -> (string) -> string
	local pattern = type(secret) == "string" and secret ~= "" and escapePattern(secret) or nil
	return function(text)
		if pattern then
			text = string.gsub(text, pattern, "[redacted]")
		end
		text = string.gsub(text, "wsk_%a+_%w+", "wsk_[redacted]")
		text = string.gsub(text, "([Bb]earer%s+)[^%s\"',;]+", "%1[redacted]")
		return text
	end
end

--- Wraps `hook(level, message, fields)` (nil discards) so that every string it receives is scrubbed and a
--- failing hook never breaks the client.
function Log.new(hook, secret) -- ((string, string, {[string]: any}) -> ()?, any) -> (string, string, {[string]: any}?) -> ()
	local scrub = Log.scrubber(secret)
	return function(level, message, fields)
		if type(hook) ~= "function" then
			return
		end
		if not LEVELS[level] then
			level = "info"
		end
		local clean = {}
		if type(fields) == "table" then
			for name, value in pairs(fields) do
				if type(value) == "string" then
					clean[name] = scrub(value)
				elseif type(value) == "number" or type(value) == "boolean" then
					clean[name] = value
				elseif value ~= nil then
					clean[name] = scrub(tostring(value))
				end
			end
		end
		pcall(hook, level, scrub(tostring(message)), clean)
	end
end

return Log
