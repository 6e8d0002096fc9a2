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
			add("body." .. tostring(name), "must NOT have additional properties")
		end
	end
	local applicant, answers = body.applicant, body.answers
	if type(applicant) ~= "table" or type(applicant.gameUserId) ~= "string" or not string.match(applicant.gameUserId, "^%d+$") then
		add("body.applicant.gameUserId", "must be a string of 1 to 32 digits")
	elseif type(applicant) == "table" then
		for name in pairs(applicant) do
			if name ~= "gameUserId" and name ~= "gameUsername" and name ~= "displayName" and name ~= "chatUserId" then
				add("body.applicant." .. tostring(name), "must NOT have additional properties")
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

-- The answers against the form: every problem at once, one issue per question.
local function answerIssues(form, answers)
	local issues, known = {}, {}
	local function add(question, code, message)
		issues[#issues + 1] = { questionId = question, code = code, message = message }
	end
	for _, q in ipairs(form.questions) do
		known[q.id] = true
		local value = answers[q.id]
		if type(value) == "string" and string.match(value, "^%s*$") then
			value = nil
		end
		if value == nil then
			if q.required then
				add(q.id, "required", "An answer is required.")
			end
		elseif TEXT_LIMITS[q.type] then
			if type(value) ~= "string" then
				add(q.id, "invalid_type", "Must be text.")
			elseif #string.match(value, "^%s*(.-)%s*$") > q.maxLength then
				add(q.id, "too_long", "Must be at most " .. q.maxLength .. " characters.")
			end
		elseif q.type == "number" then
			if type(value) ~= "number" then
				add(q.id, "invalid_type", "Must be a number.")
			elseif (q.min and value < q.min) or (q.max and value > q.max) then
				add(q.id, "out_of_range", "Must be between " .. tostring(q.min) .. " and " .. tostring(q.max) .. ".")
			end
		elseif q.type == "boolean" and type(value) ~= "boolean" then
			add(q.id, "invalid_type", "Must be true or false.")
		elseif q.type == "choice" and not isOption(q, value) then
			add(q.id, "invalid_option", "Must be one of the options.")
		end
	end
	for id in pairs(answers) do
		if not known[id] then
			add(tostring(id), "unknown_question", "The form has no such question.")
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
