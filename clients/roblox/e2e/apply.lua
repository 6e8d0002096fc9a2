-- End-to-end scenario of an in-game application centre: the core, over real HTTP, reads a form, submits
-- answers that leave its required questions out, answers that break each of its questions, answers that fit
-- it (losing the first answer on the way back, so the retry must get the same submission under the same
-- Idempotency-Key), submits again, and reads the applicant's submissions. It asserts nothing: it prints one JSON summary line on stdout for the caller to check.
--
-- Environment: GATEWAY_URL, GATEWAY_API_KEY (scopes applications:read and applications:write), E2E_FORM_ID;
-- optional E2E_GAME_USER_ID (default 41001), E2E_ANSWERS (JSON answers by question id; by default answers
-- that fit the form are made from its questions, their text carrying the marker printed as answerMarker).
-- Run from clients/roblox with LUA_PATH="src/WorkspaceGateway/Core/?.lua;spec/support/?.lua;e2e/?.lua;;".
local lib = require("core")
local SocketPlatform = require("socket_platform")
local json = require("dkjson")

local function env(name, default)
	local value = os.getenv(name)
	if value == nil or value == "" then
		assert(default, "missing environment variable " .. name)
		return default
	end
	return value
end

local MARKER = "E2E-PRIVATE-ANSWER"
local formId = env("E2E_FORM_ID")
local gameUserId = env("E2E_GAME_USER_ID", "41001")

local scheduler = SocketPlatform.scheduler()
local transport = SocketPlatform.transport(10)
local exchanges = {} -- { method, path, status, key?, replayed, lost? }
local loseNextSubmissionAnswer = false
local recording = {
	request = function(request)
		local response, failure = transport.request(request)
		local exchange = {
			method = request.method,
			path = string.match(request.url, "^https?://[^/]+(.*)$"),
			status = response and response.status or 0,
			key = request.headers["Idempotency-Key"],
			replayed = response ~= nil and response.headers ~= nil and response.headers["idempotent-replayed"] == "true",
		}
		exchanges[#exchanges + 1] = exchange
		-- The service applied the submission; the game server never hears it. Its retry must not make a second one.
		if loseNextSubmissionAnswer and response and response.status == 200 and string.find(exchange.path, "/submissions$") then
			loseNextSubmissionAnswer = false
			exchange.lost = true
			return nil, "the answer was lost on the way back (simulated)"
		end
		return response, failure
	end,
}
local logs = {}
local client = lib.Client.new({
	baseUrl = env("GATEWAY_URL"),
	apiKey = env("GATEWAY_API_KEY"),
	serverId = "e2e-application-centre",
	universeId = "0",
	placeId = "0",
	trackShifts = false,
	requestsPerMinute = 600,
	retryBaseSeconds = 0.2,
	retryMaxSeconds = 2,
	applicationDeadlineSeconds = 30,
}, {
	transport = recording,
	json = SocketPlatform.json,
	clock = SocketPlatform.clock,
	scheduler = scheduler,
	log = function(level, message, fields)
		logs[#logs + 1] = { level = level, message = message, fields = fields }
	end,
}, lib)

-- Answers that fit the form: every question answered within its type's limits.
local function fittingAnswers(form)
	local answers = {}
	for _, q in ipairs(form.questions or {}) do
		if q.type == "short_text" or q.type == "long_text" then
			answers[q.id] = string.sub(MARKER .. " for " .. q.id, 1, q.maxLength or 200)
		elseif q.type == "number" then
			answers[q.id] = q.min or q.max or 1
		elseif q.type == "boolean" then
			answers[q.id] = true
		elseif q.type == "choice" then
			answers[q.id] = q.options[1]
		elseif q.type == "multi_choice" then
			answers[q.id] = { q.options[1] }
		end
	end
	return answers
end

-- Answers that break every question of the form (each by its type), plus one to a question it does not have.
local function brokenAnswers(form)
	local answers = { e2e_no_such_question = MARKER }
	for _, q in ipairs(form.questions or {}) do
		if q.type == "short_text" or q.type == "long_text" then
			answers[q.id] = string.rep(MARKER, math.floor((q.maxLength or 5000) / #MARKER) + 1) -- too_long
		elseif q.type == "number" then
			answers[q.id] = q.max and q.max + 1 or q.min and q.min - 1 or MARKER -- above_max, below_min, wrong_type
		elseif q.type == "boolean" then
			answers[q.id] = MARKER -- wrong_type
		elseif q.type == "choice" then
			answers[q.id] = MARKER .. " option" -- not_an_option
		elseif q.type == "multi_choice" then
			answers[q.id] = { q.options[1], q.options[1] } -- duplicate_option
		end
	end
	return answers
end

-- The parts of a result the caller checks (never the answers themselves).
local function brief(result, extra)
	local out = {
		ok = result.ok, outcome = result.outcome, status = result.status, code = result.code,
		submissionId = result.submissionId, retryAfter = result.retryAfter, byQuestion = result.byQuestion,
		otherIssues = result.otherIssues, issueCount = result.issues and #result.issues or nil,
	}
	for name, value in pairs(extra or {}) do
		out[name] = value
	end
	return out
end

local function exchangesSince(first)
	local out = {}
	for i = first + 1, #exchanges do
		out[#out + 1] = exchanges[i]
	end
	return out
end

local summary = scheduler.run(function()
	client:start()
	local applicant = { gameUserId = gameUserId, gameUsername = "applicant_" .. gameUserId, displayName = MARKER .. " name" }
	local got = client:getForm(formId)
	local form = got.form or {}
	local questionIds = {}
	for _, q in ipairs(form.questions or {}) do
		questionIds[#questionIds + 1] = q.id
	end

	-- Every required question left out, and a question the form does not have.
	local missing = client:submitApplication(formId, applicant, { e2e_no_such_question = MARKER })
	-- Every question answered wrongly.
	local broken = client:submitApplication(formId, applicant, brokenAnswers(form))

	local answers = os.getenv("E2E_ANSWERS") and json.decode(os.getenv("E2E_ANSWERS")) or fittingAnswers(form)
	local before = #exchanges
	loseNextSubmissionAnswer = true
	local submitted = client:submitApplication(formId, applicant, answers)
	loseNextSubmissionAnswer = false
	local attempts = exchangesSince(before)
	local keys, lost, replayed = {}, false, false
	for _, exchange in ipairs(attempts) do
		keys[exchange.key or "none"] = true
		lost = lost or exchange.lost == true
		replayed = replayed or exchange.replayed
	end
	local keyCount = 0
	for _ in pairs(keys) do
		keyCount = keyCount + 1
	end

	local again = client:submitApplication(formId, applicant, answers)
	local status = client:applicationStatus(gameUserId)

	local messages = {}
	for _, entry in ipairs(logs) do
		local line = entry.level .. " " .. entry.message
		for name, value in pairs(entry.fields) do
			line = line .. " " .. name .. "=" .. tostring(value)
		end
		messages[#messages + 1] = line
	end
	return {
		formId = formId,
		gameUserId = gameUserId,
		answerMarker = MARKER,
		form = brief(got, { id = form.id, name = form.name, formStatus = form.status, questionIds = questionIds }),
		missing = brief(missing),
		broken = brief(broken),
		submitted = brief(submitted, {
			submissionStatus = submitted.submission and submitted.submission.status or nil,
			attempts = #attempts, keys = keyCount, answerLost = lost, replayed = replayed,
		}),
		again = brief(again),
		status = brief(status, { submissions = status.submissions }),
		requests = exchanges,
		logs = messages,
	}
end, 120)

io.write(json.encode(summary), "\n")
