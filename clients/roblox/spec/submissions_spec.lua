-- submitApplication against the fake service: what it sends, every outcome, retries under one key.
local Harness = require("harness")
local FakeService = require("fake_service")

local GOOD = { why = "I like helping new players.", age = 17, tz = "EU" }

local function submit(h, applicant, answers, formId)
	return h.run(function()
		return h.client:submitApplication(formId or h.form.id, applicant or { gameUserId = 1001 }, answers or GOOD)
	end)
end

local function warnings(h)
	local out = {}
	for _, entry in ipairs(h.logs) do
		if entry.level == "warn" or entry.level == "error" then
			out[#out + 1] = entry.message
		end
	end
	return out
end

describe("submitApplication", function()
	it("posts the applicant and the answers, and returns the submission", function()
		local h = Harness.applicationCentre()
		local result = submit(h, { gameUserId = 1001, gameUsername = "builder_1001", displayName = "Builder" })
		assert.are.equal(1, #h.service.requests)
		local request = h.service.requests[1]
		assert.are.equal("POST", request.method)
		assert.are.equal(FakeService.BASE_URL .. "/v1/applications/forms/" .. h.form.id .. "/submissions", request.url)
		assert.are.same({
			applicant = { gameUserId = "1001", gameUsername = "builder_1001", displayName = "Builder" }, answers = GOOD,
		}, request.body)
		assert.are.equal("Bearer " .. FakeService.API_KEY, request.headers["Authorization"])
		assert.are.equal("application/json", request.headers["Content-Type"])
		assert.is_truthy(request.headers["Idempotency-Key"])
		assert.are.same({ ok = true, outcome = "ok", submissionId = "sub-001", requestId = "req_1",
			submission = result.submission }, result)
		assert.are.equal("submitted", result.submission.status)
		assert.are.equal(h.form.id, result.submission.formId)
		local logged = h.logged("application submitted")
		assert.are.equal(1, #logged)
		assert.are.equal("info", logged[1].level)
		assert.are.same({ formId = h.form.id, gameUserId = "1001", submissionId = "sub-001" }, logged[1].fields)
	end)

	it("sends game and chat user ids as strings of digits, large numbers without exponent notation", function()
		local h = Harness.applicationCentre()
		submit(h, { gameUserId = 9007199254740991, chatUserId = "123456789012345678" })
		assert.are.same({ gameUserId = "9007199254740991", chatUserId = "123456789012345678" }, h.service.requests[1].body.applicant)
		submit(h, { gameUserId = "42" })
		assert.are.equal("42", h.service.requests[2].body.applicant.gameUserId)
	end)

	it("sends no answers as an empty object, not a list", function()
		local h = Harness.applicationCentre({ form = { questions = {
			{ id = "notes", label = "Anything else?", type = "short_text" },
		} } })
		local result = submit(h, nil, {})
		assert.matches('"answers":{}', h.service.requests[1].rawBody, 1, true)
		assert.are.equal("ok", result.outcome)
	end)

	it("returns the service's issues, grouped by question for the form to show, and does not retry", function()
		local h = Harness.applicationCentre()
		local result = submit(h, nil, { why = string.rep("x", 2001), age = 9, tz = "Mars", pets = "a cat" })
		assert.are.equal(1, #h.service.requests)
		assert.is_false(result.ok)
		assert.are.equal("validation_failed", result.outcome)
		assert.are.equal(400, result.status)
		assert.are.same({
			why = { { code = "too_long", message = "must be at most 2000 characters" } },
			age = { { code = "below_min", message = "must be at least 13" } },
			tz = { { code = "not_an_option", message = "must be one of the options offered" } },
			pets = { { code = "unknown_question", message = "is not a question of this form" } },
		}, result.byQuestion)
		assert.are.equal(4, #result.issues)
		assert.are.same({ questionId = "why", code = "too_long", message = "must be at most 2000 characters" }, result.issues[1])
		assert.are.same({}, result.otherIssues)
		assert.are.same({}, warnings(h))
		assert.are.same({ formId = h.form.id, gameUserId = "1001", outcome = "validation_failed", issues = 4 },
			h.logged("application not accepted")[1].fields)
	end)

	it("reports a missing required answer (blank text is missing) and keeps several issues of one question", function()
		local h = Harness.applicationCentre()
		local result = submit(h, nil, { why = "   ", age = 20 })
		assert.are.same({ why = { { code = "required", message = "is required" } } }, result.byQuestion)
		local roles = Harness.applicationCentre({ form = { questions = {
			{ id = "roles", label = "Which roles?", type = "multi_choice", required = true, options = { "chat", "events" } },
		} } })
		result = submit(roles, nil, { roles = { "chat", "voice", "chat" } })
		assert.are.same({ roles = {
			{ code = "not_an_option", message = "must list only options offered" },
			{ code = "duplicate_option", message = "must not list an option twice" },
		} }, result.byQuestion)
		h.service:script("/submissions$", { status = 400, body = { error = { code = "validation_failed", message = "invalid",
			details = { issues = {
				{ questionId = "why", code = "too_long", message = "must be at most 2000 characters" },
				{ path = "body.applicant.displayName", message = "must NOT have more than 100 characters" },
			} } } } })
		result = submit(h)
		assert.are.same({ why = { { code = "too_long", message = "must be at most 2000 characters" } } }, result.byQuestion)
		assert.are.same({ { path = "body.applicant.displayName", message = "must NOT have more than 100 characters" } },
			result.otherIssues)
	end)

	it("returns form_closed as an outcome, not an error", function()
		local h = Harness.applicationCentre({ form = { status = "closed" } })
		local result = submit(h)
		assert.are.equal("form_closed", result.outcome)
		assert.are.equal(409, result.status)
		assert.are.same({}, warnings(h))
	end)

	it("returns submission_pending with the waiting submission's id", function()
		local h = Harness.applicationCentre()
		local first = submit(h)
		local second = submit(h)
		assert.are.equal("submission_pending", second.outcome)
		assert.are.equal(first.submissionId, second.submissionId)
		assert.are.equal(2, #h.service.requests)
		assert.are.same({}, warnings(h))
	end)

	it("returns application_cooldown with when the applicant may apply again", function()
		local h = Harness.applicationCentre()
		local first = submit(h)
		h.service.applications:decide(first.submissionId, "rejected") -- at 2026-11-18T11:06:40Z
		h.world:advance(24 * 3600)
		local again = submit(h)
		assert.are.equal("application_cooldown", again.outcome)
		assert.are.equal("2026-12-02T11:06:40.000Z", again.retryAfter)
		assert.are.same({}, warnings(h))
		h.world:advance(14 * 24 * 3600)
		assert.are.equal("ok", submit(h).outcome)
	end)

	it("returns not_found for a form the key cannot see, and refused (logged) for a refusal such as the feature off", function()
		local h = Harness.applicationCentre()
		assert.are.equal("not_found", submit(h, nil, nil, "00000000-0000-4000-8000-000000000000").outcome)
		assert.are.same({}, warnings(h))
		h.service:script("/submissions$", { status = 403, body = { error = { code = "feature_disabled", message = "off" } } })
		local refused = submit(h)
		assert.are.same({ ok = false, outcome = "refused", status = 403, code = "feature_disabled", message = "off",
			requestId = "req_2" }, refused)
		assert.are.same({ "request refused" }, warnings(h))
	end)
end)

describe("submitApplication retries", function()
	it("retries 503, network failures and a submission still in progress under ONE key and the same body", function()
		local h = Harness.applicationCentre()
		h.service:script("/submissions$", { status = 503, headers = { ["Retry-After"] = "2" } })
		h.service:script("/submissions$", { failure = "HttpError: Timedout" })
		h.service:script("/submissions$", { status = 409, body = { error = { code = "idempotency_request_in_progress", message = "busy" } } })
		local result = submit(h)
		assert.are.equal("ok", result.outcome)
		local requests = h.service.requests
		assert.are.equal(4, #requests)
		for i = 2, 4 do
			assert.are.equal(requests[1].headers["Idempotency-Key"], requests[i].headers["Idempotency-Key"])
			assert.are.equal(requests[1].rawBody, requests[i].rawBody)
		end
		assert.are.equal(2, requests[2].at)
		assert.are.equal(1, #h.service.applications.submissions)
	end)

	it("gets the same submission back when the first attempt was applied but its answer lost", function()
		local h = Harness.applicationCentre()
		h.service:script("/submissions$", { failure = "HttpError: ConnectionReset", processed = true })
		local result = submit(h)
		assert.are.equal("ok", result.outcome)
		assert.are.equal("sub-001", result.submissionId)
		assert.is_true(h.service.requests[2].replayed)
		assert.are.equal(1, #h.service.applications.submissions)
	end)

	it("uses a new key for each call: one key per logical submission", function()
		local h = Harness.applicationCentre()
		submit(h, { gameUserId = 1001 })
		submit(h, { gameUserId = 1002 })
		local requests = h.service.requests
		assert.are_not.equal(requests[1].headers["Idempotency-Key"], requests[2].headers["Idempotency-Key"])
	end)

	it("gives up as unavailable within applicationDeadlineSeconds while the service cannot answer", function()
		local h = Harness.applicationCentre({ options = { applicationDeadlineSeconds = 10 } })
		h.service:script("/submissions$", { status = 503 }, 100)
		local result = submit(h)
		assert.are.equal("unavailable", result.outcome)
		assert.are.equal(503, result.status)
		local requests = h.service.requests
		assert.is_true(#requests >= 2)
		assert.is_true(requests[#requests].at <= 10)
		assert.are.equal(0, #h.service.applications.submissions)
	end)

	it("spends the client's request budget like every other call", function()
		local h = Harness.applicationCentre({ options = { requestsPerMinute = 2, applicationDeadlineSeconds = 90 } })
		submit(h, { gameUserId = 1 })
		submit(h, { gameUserId = 2 })
		local third = submit(h, { gameUserId = 3 })
		assert.are.equal("ok", third.outcome)
		assert.are.equal(60, h.service.requests[3].at)
		local short = Harness.applicationCentre({ options = { requestsPerMinute = 1, applicationDeadlineSeconds = 30 } })
		submit(short, { gameUserId = 1 })
		assert.are.equal("unavailable", submit(short, { gameUserId = 2 }).outcome)
		assert.are.equal(1, #short.service.requests)
	end)
end)

describe("submitApplication and personal data", function()
	it("never logs an answer or an applicant's name, whatever the outcome", function()
		local h = Harness.applicationCentre()
		local answers = { why = "SECRET-ANSWER because I am SECRET-PERSON", age = 31 }
		local applicant = { gameUserId = 1001, gameUsername = "SECRET-USERNAME", displayName = "SECRET-DISPLAY" }
		h.service:script("/submissions$", { failure = "HttpError: Timedout" })
		submit(h, applicant, answers) -- retried, then submitted
		submit(h, applicant, answers) -- submission_pending
		h.service:script("/submissions$", { status = 400, body = { error = { code = "validation_failed",
			message = "The request is invalid.", details = { issues = {
				{ questionId = "why", code = "too_long", message = "'" .. answers.why .. "' is too long" },
			} } } } })
		local invalid = submit(h, applicant, answers)
		assert.matches("SECRET%-ANSWER", invalid.byQuestion.why[1].message) -- passed through to the game...
		h.service:script("/submissions$", { status = 500, body = { error = { code = "internal_error", message = "x" } } }, 100)
		submit(h, applicant, answers)
		submit(h, applicant, { why = function() end })
		assert.is_true(#h.logs >= 8)
		for _, entry in ipairs(h.logs) do -- ...but never into the log, at any level
			local text = entry.message
			for name, value in pairs(entry.fields) do
				text = text .. " " .. name .. "=" .. tostring(value)
			end
			assert.is_nil(string.find(text, "SECRET", 1, true), text)
		end
	end)
end)

describe("submitApplication arguments", function()
	it("turns answers that cannot be sent into a validation outcome, without a request", function()
		local h = Harness.applicationCentre()
		local notTable = submit(h, nil, "why")
		assert.are.equal("validation_failed", notTable.outcome)
		assert.are.equal("body.answers", notTable.otherIssues[1].path)
		assert.are.same({}, notTable.byQuestion)
		assert.are.equal("validation_failed", submit(h, nil, { why = function() end }).outcome)
		assert.are.equal(0, #h.service.requests)
	end)

	it("raises, at the caller, for a mistake in the game's own code", function()
		local h = Harness.applicationCentre()
		local ok, err = pcall(function()
			h.client:submitApplication(h.form.id, { gameUserId = "player-1" }, GOOD)
		end)
		assert.is_false(ok)
		assert.matches("submissions_spec%.lua:%d+: WorkspaceGateway: applicant%.gameUserId must be", err)
		assert.has_error(function() h.client:submitApplication(h.form.id, 1001, GOOD) end)
		assert.has_error(function() h.client:submitApplication(nil, { gameUserId = 1 }, GOOD) end)
		assert.has_error(function() h.client:submitApplication(h.form.id, { gameUserId = 1, chatUserId = "x" }, GOOD) end)
		assert.are.equal(0, #h.service.requests)
	end)
end)
