-- The application endpoints of the fake service: a form, the intake (the service's checks of the body and
-- of the answers against the form, closed forms, pending submissions, the cooldown after a rejection), and
-- an applicant's submissions, answered as docs/GAME-SERVERS.md describes them.
local Time = require("Time")

local FakeApplications = {}
FakeApplications.__index = FakeApplications

local DAY_MILLIS = 24 * 3600 * 1000
local TEXT_LIMITS = { short_text = 200, long_text = 5000 }

--- world: the virtual world (its clock dates the submissions).
function FakeApplications.new(world)
	return setmetatable({ world = world, forms = {}, submissions = {}, nextId = 1 }, FakeApplications)
end

--- Adds a form (questions' defaults filled in, as the service serves them).
function FakeApplications:addForm(form)
	form.status = form.status or "open"
	form.cooldownDays = form.cooldownDays or 0
	for _, question in ipairs(form.questions) do
		question.required = question.required == true
		question.maxLength = question.maxLength or TEXT_LIMITS[question.type]
	end
	self.forms[form.id] = form
	return form
end

--- Records a decision on a submission (for the cooldown), at the world's current time.
function FakeApplications:decide(submissionId, status)
	for _, submission in ipairs(self.submissions) do
		if submission.id == submissionId then
			submission.status, submission.decidedAtMillis = status, self.world.clock.unixMillis()
			submission.decidedAt = Time.isoFromUnixMillis(submission.decidedAtMillis)
		end
	end
end

local function answer(data)
	return { status = 200, body = { data = data } }
end

local function refuse(status, code, message, details)
	return { status = status, body = { error = { code = code, message = message, requestId = "req_fake", details = details } } }
end

local function invalid(issues)
	return refuse(400, "validation_failed", "The request is invalid.", { issues = issues })
end

local function listItem(submission)
	return {
		id = submission.id, formId = submission.formId, formName = submission.formName, status = submission.status,
		createdAt = submission.createdAt, decidedAt = submission.decidedAt,
	}
end

-- The body's shape: { applicant: { gameUserId digits, gameUsername?, displayName?, chatUserId? }, answers: {} }.
local function shapeIssues(body)
	local issues = {}
	local function add(path, message)
		issues[#issues + 1] = { path = path, message = message }
	end
	for name in pairs(body) do
		if name ~= "applicant" and name ~= "answers" then
			add("body." .. tostring(name), "is not a known property")
		end
	end
	local applicant, answers = body.applicant, body.answers
	if type(applicant) ~= "table" or type(applicant.gameUserId) ~= "string" or not string.match(applicant.gameUserId, "^%d+$") then
		add("body.applicant.gameUserId", "must be a string of 1 to 32 digits")
	elseif type(applicant) == "table" then
		for name in pairs(applicant) do
			if name ~= "gameUserId" and name ~= "gameUsername" and name ~= "displayName" and name ~= "chatUserId" then
				add("body.applicant." .. tostring(name), "is not a known property")
			end
		end
	end
	local meta = type(answers) == "table" and getmetatable(answers) or nil
	if type(answers) ~= "table" or (meta and meta.__jsontype == "array") then
		add("body.answers", "must be object")
	end
	return issues
end

local function isOption(question, value)
	for _, option in ipairs(question.options or {}) do
		if option == value then
			return true
		end
	end
	return false
end

-- Characters (code points) of UTF-8 text, as the service counts them.
local function characters(text)
	local _, count = string.gsub(text, "[^\128-\191]", "")
	return count
end

local function trim(text)
	return (string.match(text, "^%s*(.-)%s*$"))
end

-- One answer against its question, as the service checks it: (nil, nil) no answer, (value, nil) an answer,
-- (nil, { { code, message } }) its problems. Messages and codes are the service's (details.issues).
local function checkAnswer(q, value)
	if value == nil then
		return nil, nil
	end
	local function problem(code, message)
		return nil, { { code = code, message = message } }
	end
	if TEXT_LIMITS[q.type] then
		if type(value) ~= "string" then
			return problem("wrong_type", "must be a string")
		end
		local text = trim(value)
		if text == "" then
			return nil, nil
		end
		if characters(text) > q.maxLength then
			return problem("too_long", "must be at most " .. q.maxLength .. " characters")
		end
		return text, nil
	elseif q.type == "number" then
		if type(value) ~= "number" then
			return problem("wrong_type", "must be a number")
		elseif q.min and value < q.min then
			return problem("below_min", "must be at least " .. q.min)
		elseif q.max and value > q.max then
			return problem("above_max", "must be at most " .. q.max)
		end
		return value, nil
	elseif q.type == "boolean" then
		if type(value) ~= "boolean" then
			return problem("wrong_type", "must be true or false")
		end
		return value, nil
	elseif q.type == "choice" then
		if type(value) ~= "string" then
			return problem("wrong_type", "must be one of the options, as a string")
		end
		local choice = trim(value)
		if choice == "" then
			return nil, nil
		end
		if not isOption(q, choice) then
			return problem("not_an_option", "must be one of the options offered")
		end
		return choice, nil
	elseif q.type == "multi_choice" then
		if type(value) ~= "table" then
			return problem("wrong_type", "must be a list of options, as strings")
		end
		local seen, problems, offered, duplicate = {}, {}, true, false
		for _, choice in ipairs(value) do
			if type(choice) ~= "string" then
				return problem("wrong_type", "must be a list of options, as strings")
			end
			choice = trim(choice)
			offered = offered and isOption(q, choice)
			duplicate = duplicate or seen[choice] == true
			seen[choice] = true
		end
		if #value == 0 then
			return nil, nil
		end
		if not offered then
			problems[#problems + 1] = { code = "not_an_option", message = "must list only options offered" }
		end
		if duplicate then
			problems[#problems + 1] = { code = "duplicate_option", message = "must not list an option twice" }
		end
		if #problems > 0 then
			return nil, problems
		end
		return value, nil
	end
	return value, nil
end

-- The answers against the form: every problem at once, in the form's question order, then unknown answers.
local function answerIssues(form, answers)
	local issues, known = {}, {}
	for _, q in ipairs(form.questions) do
		known[q.id] = true
		local value, problems = checkAnswer(q, answers[q.id])
		for _, p in ipairs(problems or {}) do
			issues[#issues + 1] = { questionId = q.id, code = p.code, message = p.message }
		end
		if value == nil and not problems and q.required then
			issues[#issues + 1] = { questionId = q.id, code = "required", message = "is required" }
		end
	end
	for id in pairs(answers) do
		if not known[id] then
			issues[#issues + 1] = { questionId = tostring(id), code = "unknown_question", message = "is not a question of this form" }
		end
	end
	return issues
end

function FakeApplications:_submit(form, body)
	local shape = shapeIssues(body)
	if #shape > 0 then
		return invalid(shape)
	end
	local issues = answerIssues(form, body.answers)
	if #issues > 0 then
		return invalid(issues)
	end
	if form.status ~= "open" then
		return refuse(409, "form_closed", "The form is closed.")
	end
	local userId, now = body.applicant.gameUserId, self.world.clock.unixMillis()
	for _, s in ipairs(self.submissions) do
		if s.formId == form.id and s.gameUserId == userId then
			if s.status == "submitted" or s.status == "under_review" then
				return refuse(409, "submission_pending", "A submission is waiting for review.", { submissionId = s.id })
			end
			local until_ = s.status == "rejected" and s.decidedAtMillis + form.cooldownDays * DAY_MILLIS
			if until_ and until_ > now then
				return refuse(409, "application_cooldown", "Rejected recently.", { retryAfter = Time.isoFromUnixMillis(until_) })
			end
		end
	end
	local submission = {
		id = string.format("sub-%03d", self.nextId), formId = form.id, formName = form.name, status = "submitted",
		gameUserId = userId, applicant = body.applicant, answers = body.answers, createdAt = Time.isoFromUnixMillis(now),
	}
	self.nextId = self.nextId + 1
	self.submissions[#self.submissions + 1] = submission
	local item = listItem(submission)
	item.environment, item.applicant = "test", body.applicant
	return answer({ submission = item, commandId = "cmd-" .. submission.id, eventId = "evt-" .. submission.id })
end

--- The answer to a request under /v1/applications/, or nil for another path.
function FakeApplications:route(request)
	local path = request.path
	local formId = string.match(path, "^/v1/applications/forms/([^/]+)$")
	if formId and request.method == "GET" then
		local form = self.forms[formId]
		return form and answer({ form = form }) or refuse(404, "not_found", "No such form.")
	end
	formId = string.match(path, "^/v1/applications/forms/([^/]+)/submissions$")
	if formId and request.method == "POST" then
		local form = self.forms[formId]
		return form and self:_submit(form, request.body or {}) or refuse(404, "not_found", "No such form.")
	end
	local userId = string.match(path, "^/v1/applications/applicants/([^/]+)/submissions$")
	if userId and request.method == "GET" then
		local mine = {}
		for i = #self.submissions, 1, -1 do -- newest first
			local s = self.submissions[i]
			if s.gameUserId == userId and #mine < 20 then
				mine[#mine + 1] = listItem(s)
			end
		end
		return answer({ submissions = mine })
	end
	return nil
end

return FakeApplications
