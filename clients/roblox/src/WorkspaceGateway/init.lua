--[[
WorkspaceGateway: the Roblox adapter. The only file here that touches platform globals: it wires
HttpService, Players, game:BindToClose, task and DateTime into the platform-free core (the Core folder).

Usage (a Script in ServerScriptService; HttpService.HttpEnabled must be on):

	local WorkspaceGateway = require(game:GetService("ServerScriptService").WorkspaceGateway)
	local client = WorkspaceGateway.start({
		baseUrl = "https://gateway.example.com",
		apiKeySecret = "workspace_gateway_key", -- a secret of the experience (or apiKey = "wsk_live_...")
		-- trackShifts = false, -- an application centre: only client:getForm / submitApplication / applicationStatus
	})
]]

local HttpService = game:GetService("HttpService")
local Players = game:GetService("Players")

local Core = script:WaitForChild("Core")
local lib = {
	Config = require(Core:WaitForChild("Config")),
	Time = require(Core:WaitForChild("Time")),
	Retry = require(Core:WaitForChild("Retry")),
	Budget = require(Core:WaitForChild("Budget")),
	Log = require(Core:WaitForChild("Log")),
	Requester = require(Core:WaitForChild("Requester")),
	Heartbeats = require(Core:WaitForChild("Heartbeats")),
	Applications = require(Core:WaitForChild("Applications")),
	PlayerThrottle = require(Core:WaitForChild("PlayerThrottle")),
	ApplicationCentre = require(Core:WaitForChild("ApplicationCentre")),
	Client = require(Core:WaitForChild("Client")),
}

local WorkspaceGateway = {}
WorkspaceGateway.lib = lib
WorkspaceGateway.VERSION = lib.Config.VERSION

local function defaultLog(level, message, fields)
	if level == "debug" then
		return
	end
	local parts = {}
	for name, value in pairs(fields) do
		parts[#parts + 1] = name .. "=" .. tostring(value)
	end
	table.sort(parts)
	local line = "[WorkspaceGateway] " .. message .. (#parts > 0 and (" " .. table.concat(parts, " ")) or "")
	if level == "info" then
		print(line)
	else
		warn(line)
	end
end

--- The platform table the core expects, built from the Roblox services.
function WorkspaceGateway.robloxPlatform(log)
	local random = Random.new()
	return {
		transport = {
			request = function(request)
				local ok, response = pcall(function()
					return HttpService:RequestAsync({
						Url = request.url,
						Method = request.method,
						Headers = request.headers,
						Body = request.body,
					})
				end)
				if not ok then
					return nil, tostring(response)
				end
				return { status = response.StatusCode, headers = response.Headers, body = response.Body }
			end,
		},
		json = {
			encode = function(value)
				return HttpService:JSONEncode(value)
			end,
			decode = function(text)
				return HttpService:JSONDecode(text)
			end,
		},
		clock = {
			-- Luau's os.clock is a monotonic high-resolution wall clock (not CPU time), so it advances while threads wait.
			monotonic = os.clock,
			unixMillis = function()
				return DateTime.now().UnixTimestampMillis
			end,
		},
		scheduler = {
			spawn = function(fn)
				task.spawn(fn)
			end,
			sleep = function(seconds)
				task.wait(seconds)
			end,
		},
		players = {
			list = function()
				local ids = {}
				for _, player in ipairs(Players:GetPlayers()) do
					ids[#ids + 1] = player.UserId
				end
				return ids
			end,
			onJoin = function(fn)
				Players.PlayerAdded:Connect(function(player)
					fn(player.UserId)
				end)
			end,
			onLeave = function(fn)
				Players.PlayerRemoving:Connect(function(player)
					fn(player.UserId)
				end)
			end,
		},
		random = function()
			return random:NextNumber()
		end,
		newKey = function()
			return HttpService:GenerateGUID(false)
		end,
		log = log or defaultLog,
	}
end

--- Starts tracking this server's staff shifts (unless trackShifts = false) and binds the server stop to
--- shutdown. Returns the client, whose getForm, submitApplication and applicationStatus serve an in-game
--- application centre.
--- options: the core's (see Core/Config), plus apiKeySecret (the name of an experience secret holding the
--- key) instead of apiKey, and log (level, message, fields). serverId, universeId and placeId default to
--- game.JobId (a generated id in Studio, where it is empty), game.GameId and game.PlaceId.
function WorkspaceGateway.start(options)
	local coreOptions = {}
	for name, value in pairs(options) do
		coreOptions[name] = value
	end
	if options.apiKeySecret then
		coreOptions.authorization = HttpService:GetSecret(options.apiKeySecret):AddPrefix("Bearer ")
		coreOptions.apiKeySecret = nil
	end
	if coreOptions.serverId == nil then
		coreOptions.serverId = game.JobId ~= "" and game.JobId or ("studio-" .. HttpService:GenerateGUID(false))
	end
	coreOptions.universeId = coreOptions.universeId or game.GameId
	coreOptions.placeId = coreOptions.placeId or game.PlaceId
	local platform = WorkspaceGateway.robloxPlatform(options.log)
	if not HttpService.HttpEnabled then
		platform.log("error", "HTTP requests are off: turn on Allow HTTP Requests in the experience's security settings", {})
	end
	local client = lib.Client.new(coreOptions, platform, lib)
	game:BindToClose(function()
		-- Yields until the server stop is answered or shutdownTimeoutSeconds (default 20 of the 30 s) pass.
		client:shutdown()
	end)
	return client:start()
end

return WorkspaceGateway
