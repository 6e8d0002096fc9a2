--[[
Applications: what an in-game application centre asks the service: a form, a submission of an applicant's
answers, and the applicant's submissions.

Each call yields (make it from a thread that may wait, such as a RemoteFunction handler) and returns a
result table; an answer of the service never raises:

  { ok = true, outcome = "ok", requestId, form | submission + submissionId | submissions }
  { ok = false, outcome, status?, code?, message?, requestId? }, outcome being one of
    "validation_failed"    the answers do not fit the form: issues (as the service sent them), byQuestion
                           ({ [questionId] = { { code, message } } }, for the form to show next to each
                           question) and otherIssues (problems not tied to one question)
    "form_closed"          the form takes no applications now
    "submission_pending"   the applicant already has a submission waiting for review: submissionId
    "application_cooldown" rejected recently: retryAfter, when they may apply again (ISO-8601 text)
    "not_found"            no such form (or not one of this key's workspace)
    "refused"              any other refusal (a revoked key, a missing scope, the feature off): code says which
    "unavailable"          no answer in time (network, overload, rate limit, the request budget): try later

Requests share the client's budget, Retry-After pauses and retry rules. A submission carries one
Idempotency-Key on all its attempts, so a retry whose first attempt did reach the service gets the same
submission back instead of a second one. Answers and the applicant's names are personal data: they go into
the request body and nowhere else (the log gets the form id, the game user id and outcomes).
]]

local Applications = {}

local SUBMISSION_CODES = {
	validation_failed = true, form_closed = true, submission_pending = true, application_cooldown = true,
}

local function urlEncode(text) -- (string) -> string
	return (string.gsub(text, "[^%w%-%._~]", function(char)
		return string.format("%%%02X", string.byte(char))
	end))
end

-- A mistake in the game's own code (not in what a player sent): raised at the caller of the Client method.
local function misuse(message) -- (string) -> never
	error("WorkspaceGateway: " .. message, 4)
end

-- The string of digits the service expects for a game user id (a number or a string of 1..32 digits).
local function digits(value) -- (any) -> string?
	local text = value
	if type(value) == "number" and value >= 0 and value == math.floor(value) then
		text = string.format("%.0f", value)
	end
	if type(text) ~= "string" or not string.match(text, "^%d+$") or #text > 32 then
		return nil
	end
	return text
end

local function formPath(formId) -- (any) -> string?
	if type(formId) ~= "string" or formId == "" then
		return nil
	end
	return "/v1/applications/forms/" .. urlEncode(formId)
end

-- The result of a call the service did not accept.
local function failure(result, expected) -- (Result, {[string]: boolean}?) -> ApplicationResult
	local out = {
		ok = false, status = result.status, code = result.code, message = result.message, requestId = result.requestId,
	}
	local status = result.status
	-- A 2xx without the expected data counts as no usable answer, like a network failure.
	if result.ok or result.outcome ~= "answered" or not status or status >= 500 or status == 429 or status == 408 then
		out.outcome = "unavailable"
	elseif expected and expected[result.code] then
		out.outcome = result.code
	elseif status == 404 then
		out.outcome = "not_found"
	else
		out.outcome = "refused"
	end
	return out
end

-- Sorts the service's issues by question, for a form that shows each next to its question.
local function groupIssues(out, details) -- (ApplicationResult, table?) -> ()
	local issues = details and type(details.issues) == "table" and details.issues or {}
	local byQuestion, otherIssues = {}, {}
	for _, issue in ipairs(issues) do
		if type(issue) == "table" and type(issue.questionId) == "string" then
			local list = byQuestion[issue.questionId]
			if not list then
				list = {}
				byQuestion[issue.questionId] = list
			end
			list[#list + 1] = { code = issue.code, message = issue.message }
		elseif type(issue) == "table" then
			otherIssues[#otherIssues + 1] = issue
		end
	end
	out.issues, out.byQuestion, out.otherIssues = issues, byQuestion, otherIssues
end

-- A call that could not be made because of what the player sent (answers that are no JSON object).
local function unsendable(message) -- (string) -> ApplicationResult
	return {
		ok = false, outcome = "validation_failed", issues = {}, byQuestion = {},
		otherIssues = { { path = "body.answers", message = message } },
	}
end

local function call(client, request) -- (Client, Request) -> Result
	request.deadline = client:_now() + client.config.applicationDeadlineSeconds
	return client.requester:call(request)
end

--- GET /v1/applications/forms/{formId}: the form, with its questions (id, label, type, required, and the
--- limits of its type), for the game to show.
function Applications.getForm(client, formId) -- (Client, string) -> ApplicationResult
	local path = formPath(formId) or misuse("formId must be a non-empty string")
	local result = call(client, { method = "GET", path = path, label = "get form" })
	local form = result.ok and type(result.data) == "table" and result.data.form or nil
	if type(form) == "table" then
		return { ok = true, outcome = "ok", form = form, requestId = result.requestId }
	end
	return failure(result)
end

-- The applicant as the service takes it: gameUserId as digits, the optional names, chatUserId as digits.
local function applicantBody(applicant) -- (any) -> (table?, string?)
	if type(applicant) ~= "table" then
		return nil, "applicant must be a table such as { gameUserId = player.UserId }"
	end
	local body = { gameUserId = digits(applicant.gameUserId) }
	if not body.gameUserId then
		return nil, "applicant.gameUserId must be a whole number or a string of 1 to 32 digits"
	end
	if applicant.gameUsername ~= nil then
		body.gameUsername = tostring(applicant.gameUsername)
	end
	if applicant.displayName ~= nil then
		body.displayName = tostring(applicant.displayName)
	end
	if applicant.chatUserId ~= nil then
		body.chatUserId = digits(applicant.chatUserId)
		if not body.chatUserId then
			return nil, "applicant.chatUserId must be a whole number or a string of 1 to 32 digits"
		end
	end
	return body
end

--- POST /v1/applications/forms/{formId}/submissions. applicant: { gameUserId, gameUsername?, displayName?,
--- chatUserId? }; answers: { [questionId] = value } (text, number, boolean, an option, or a list of options).
function Applications.submit(client, formId, applicant, answers) -- (Client, string, table, table) -> ApplicationResult
	local path = (formPath(formId) or misuse("formId must be a non-empty string")) .. "/submissions"
	local applicantFields, problem = applicantBody(applicant)
	if not applicantFields then
		misuse(problem)
	end
	if type(answers) ~= "table" then
		return unsendable("answers must be a table of answers by question id")
	end
	-- Encoded here, not by the requester: a JSON encoder writes an empty table as a list, and the service
	-- expects an object. Answers come from the player's device, so a value JSON cannot carry is an outcome.
	local answersText = "{}"
	if next(answers) ~= nil then
		local encoded, text = pcall(client.json.encode, answers)
		if not encoded or type(text) ~= "string" then
			return unsendable("answers must be text, numbers, booleans or lists of options")
		end
		answersText = text
	end
	local bodyText = '{"applicant":' .. client.json.encode(applicantFields) .. ',"answers":' .. answersText .. "}"
	local result = call(client, {
		method = "POST", path = path, bodyText = bodyText, label = "submit application", expectedCodes = SUBMISSION_CODES,
	})
	local fields = { formId = formId, gameUserId = applicantFields.gameUserId }
	local submission = result.ok and type(result.data) == "table" and result.data.submission or nil
	if type(submission) == "table" then
		fields.submissionId = submission.id
		client.log("info", "application submitted", fields)
		return {
			ok = true, outcome = "ok", submission = submission, submissionId = submission.id, requestId = result.requestId,
		}
	end
	local out = failure(result, SUBMISSION_CODES)
	local details = result.details
	if out.outcome == "validation_failed" then
		groupIssues(out, details)
		fields.issues = #out.issues
	elseif out.outcome == "submission_pending" then
		out.submissionId = details and details.submissionId or nil
		fields.submissionId = out.submissionId
	elseif out.outcome == "application_cooldown" then
		out.retryAfter = details and details.retryAfter or nil
		fields.retryAfter = out.retryAfter
	end
	if SUBMISSION_CODES[out.outcome] then
		fields.outcome = out.outcome
		client.log("info", "application not accepted", fields)
	end
	return out
end

--- GET /v1/applications/applicants/{gameUserId}/submissions: what the applicant may be told about their
--- submissions ({ id, formId, formName, status, createdAt, decidedAt }), newest first, at most 20.
function Applications.status(client, gameUserId) -- (Client, string | number) -> ApplicationResult
	local userId = digits(gameUserId) or misuse("gameUserId must be a whole number or a string of 1 to 32 digits")
	local path = "/v1/applications/applicants/" .. userId .. "/submissions"
	local result = call(client, { method = "GET", path = path, label = "application status" })
	local submissions = result.ok and type(result.data) == "table" and result.data.submissions or nil
	if type(submissions) == "table" then
		return { ok = true, outcome = "ok", submissions = submissions, requestId = result.requestId }
	end
	return failure(result)
end

return Applications
