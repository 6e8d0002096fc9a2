--[[
ApplicationCentre: the server side of an in-game application centre, as RemoteFunction handlers. Players call
them from their own machines, so an exploiting player can invoke them as fast as they like: every call that would
reach the service first takes one from that player's allowance (a token bucket of `callsPerMinute`, default 10,
see PlayerThrottle), and a player already submitting cannot start a second submission. A refused call sends
nothing and spends nothing of the server's request budget, which stays for the other players and the shift
heartbeats.

	local centre = client:applicationCentre({ formId = FORM_ID, callsPerMinute = 10 })
	remotes.GetForm.OnServerInvoke = function(player) return centre:getForm(player) end
	remotes.Submit.OnServerInvoke = function(player, answers) return centre:submit(player, answers) end
	remotes.Status.OnServerInvoke = function(player) return centre:status(player) end
	Players.PlayerRemoving:Connect(function(player) centre:playerLeft(player) end)

Each handler yields and returns a table for the player's screen: { ok, outcome, ... } as the client's calls
return (see Applications), or { ok = false, outcome = "throttled", retryAfterSeconds } when the player has used
their allowance, or { ok = false, outcome = "busy" } while their previous submission is under way. The form is
read from the service once and then served from memory (no request, no allowance spent).
]]

local ApplicationCentre = {}
ApplicationCentre.__index = ApplicationCentre

local DEFAULT_CALLS_PER_MINUTE = 10

local function misuse(message) -- (string) -> never
	error("WorkspaceGateway: " .. message, 3)
end

--- options: { formId, callsPerMinute? }. PlayerThrottle is the sibling module (handed in by the client).
function ApplicationCentre.new(client, options, PlayerThrottle) -- (Client, table, PlayerThrottle) -> ApplicationCentre
	if type(options) ~= "table" or type(options.formId) ~= "string" or options.formId == "" then
		misuse("applicationCentre needs { formId = <the form's id> }")
	end
	local perMinute = options.callsPerMinute or DEFAULT_CALLS_PER_MINUTE
	if type(perMinute) ~= "number" or perMinute < 1 or perMinute ~= math.floor(perMinute) then
		misuse("callsPerMinute must be a whole number of at least 1")
	end
	return setmetatable({
		client = client, formId = options.formId, throttle = PlayerThrottle.new(perMinute, client.clock),
		submitting = {}, form = nil,
	}, ApplicationCentre)
end

local function keyOf(player) -- (Player) -> string
	return tostring(player.UserId)
end

-- Takes one call from the player's allowance; the refusal to return when there is none left.
function ApplicationCentre:_refusal(player) -- (Player) -> table?
	local allowed, wait = self.throttle:take(keyOf(player))
	if allowed then
		return nil
	end
	self.client.log("debug", "application centre call throttled", { gameUserId = keyOf(player) })
	return { ok = false, outcome = "throttled", retryAfterSeconds = math.ceil(wait) }
end

--- The form with its questions: from memory once read; else read from the service (one call of the allowance).
function ApplicationCentre:getForm(player) -- (Player) -> table
	if self.form then
		return { ok = true, outcome = "ok", form = self.form }
	end
	local refused = self:_refusal(player)
	if refused then
		return refused
	end
	local result = self.client:getForm(self.formId)
	if result.ok then
		self.form = result.form
	end
	return { ok = result.ok, outcome = result.outcome, form = result.form }
end

--- Submits the player's answers as their application; one at a time per player.
function ApplicationCentre:submit(player, answers) -- (Player, any) -> table
	local key = keyOf(player)
	if self.submitting[key] then
		return { ok = false, outcome = "busy" }
	end
	local refused = self:_refusal(player)
	if refused then
		return refused
	end
	self.submitting[key] = true
	local ok, result = pcall(self.client.submitApplication, self.client, self.formId, {
		gameUserId = player.UserId, gameUsername = player.Name, displayName = player.DisplayName,
	}, answers)
	self.submitting[key] = nil
	if not ok then
		error(result, 0)
	end
	return {
		ok = result.ok, outcome = result.outcome, byQuestion = result.byQuestion, otherIssues = result.otherIssues,
		submissionId = result.submissionId, retryAfter = result.retryAfter,
	}
end

--- The player's own submissions, newest first.
function ApplicationCentre:status(player) -- (Player) -> table
	local refused = self:_refusal(player)
	if refused then
		return refused
	end
	local result = self.client:applicationStatus(player.UserId)
	return { ok = result.ok, outcome = result.outcome, submissions = result.submissions }
end

--- Forgets a player who left (their allowance starts full if they come back).
function ApplicationCentre:playerLeft(player) -- (Player) -> ()
	self.throttle:forget(keyOf(player))
end

return ApplicationCentre
