--[[
Config: the client's settings with their defaults, checked once when the client is created.

Required: baseUrl, serverId, universeId, placeId, and the credential (apiKey, a "wsk_..." string, or
authorization, an opaque header value the transport understands, such as a platform secret).
]]

local Config = {}

--- The module's version, sent with every request. wally.toml is its source of truth; a spec keeps this copy equal.
Config.VERSION = "1.0.0"

Config.DEFAULTS = {
	heartbeatIntervalSeconds = 30, -- one batch heartbeat per interval for every shift of the server
	requestsPerMinute = 60, -- this client's share of the server's outgoing HTTP budget (every attempt counts)
	maxAttempts = 6, -- attempts per request, the first included
	retryBaseSeconds = 1, -- backoff before the second attempt (doubling, capped by retryMaxSeconds, jittered)
	retryMaxSeconds = 30,
	requestDeadlineSeconds = 300, -- a start or stop still failing after this long is given up
	applicationDeadlineSeconds = 30, -- a form, submission or status call a player waits on gives up after this long
	shutdownTimeoutSeconds = 20, -- the server stop at shutdown; the platform allows 30 s in all
	sendTimestamps = true, -- send the game server's own startedAt / recordedAt / endedAt
	trackShifts = true, -- false: no shift tracking (an application centre that only takes applications)
}

local FLAGS = { sendTimestamps = true, trackShifts = true }

local function fail(message)
	error("WorkspaceGateway config: " .. message, 3)
end

local function positiveNumber(options, name)
	local value = options[name]
	if value == nil then
		return Config.DEFAULTS[name]
	end
	if type(value) ~= "number" or value <= 0 or value ~= value then
		fail(name .. " must be a positive number")
	end
	return value
end

local function idText(options, name)
	local value = options[name]
	if type(value) == "number" and value == math.floor(value) then
		return string.format("%.0f", value)
	end
	if type(value) ~= "string" or value == "" then
		fail(name .. " is required (a non-empty string or an integer)")
	end
	return value
end

--- The settings the client runs with: options over defaults, validated. Raises a clear error otherwise.
function Config.resolve(options) -- ({[string]: any}) -> Config
	if type(options) ~= "table" then
		fail("options must be a table")
	end
	local baseUrl = options.baseUrl
	if type(baseUrl) ~= "string" or not string.match(baseUrl, "^https?://[^%s]+$") then
		fail("baseUrl must be an http(s) URL such as https://gateway.example.com")
	end
	baseUrl = string.gsub(baseUrl, "/+$", "")
	local authorization = options.authorization
	if authorization == nil then
		local apiKey = options.apiKey
		if type(apiKey) ~= "string" or not string.match(apiKey, "^wsk_%a+_%w+$") then
			-- Never echo the value: it may be a real key with a typo.
			fail("apiKey must be a workspace API key (wsk_test_... or wsk_live_...)")
		end
		authorization = "Bearer " .. apiKey
	end
	local serverId = idText(options, "serverId")
	if #serverId > 128 then
		fail("serverId must be at most 128 characters")
	end
	local resolved = {
		baseUrl = baseUrl,
		authorization = authorization,
		serverId = serverId,
		universeId = idText(options, "universeId"),
		placeId = idText(options, "placeId"),
		clientVersion = "workspace-gateway-roblox/" .. Config.VERSION,
	}
	for name, default in pairs(Config.DEFAULTS) do
		if FLAGS[name] then
			local value = options[name]
			if value == nil then
				value = default
			elseif type(value) ~= "boolean" then
				fail(name .. " must be true or false")
			end
			resolved[name] = value
		else
			resolved[name] = positiveNumber(options, name)
		end
	end
	resolved.maxAttempts = math.floor(resolved.maxAttempts)
	resolved.requestsPerMinute = math.floor(resolved.requestsPerMinute)
	if resolved.maxAttempts < 1 or resolved.requestsPerMinute < 1 then
		fail("maxAttempts and requestsPerMinute must be at least 1")
	end
	return resolved
end

return Config
