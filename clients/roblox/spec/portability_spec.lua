-- The core stays free of platform globals and inside the Lua 5.1 subset of Luau.
local CORE = "src/WorkspaceGateway/Core/"
local FILES = { "ApplicationCentre", "Applications", "Budget", "Client", "Config", "Heartbeats", "Log", "PlayerThrottle", "Requester", "Retry", "Time" }

-- Lua 5.1 standard names that Luau also provides with the same meaning.
local ALLOWED = {
	assert = true, error = true, ipairs = true, next = true, pairs = true, pcall = true, select = true,
	setmetatable = true, getmetatable = true, tonumber = true, tostring = true, type = true, rawget = true,
	rawequal = true, rawset = true, math = true, string = true, table = true,
}

local function globalsOf(file)
	local listing = io.popen("luac5.1 -p -l " .. file .. " 2>&1")
	local text = listing:read("*a")
	listing:close()
	local reads, writes = {}, {}
	for op, name in string.gmatch(text, "([GS]ETGLOBAL)%s+%d+%s+%-?%d+%s+; ([%w_]+)") do
		if op == "GETGLOBAL" then
			reads[name] = true
		else
			writes[name] = true
		end
	end
	return reads, writes, text
end

describe("the core", function()
	for _, name in ipairs(FILES) do
		it(name .. ".lua reads only portable standard globals and writes none", function()
			local reads, writes, text = globalsOf(CORE .. name .. ".lua")
			assert.is_nil(string.find(text, "luac5.1:", 1, true), text)
			for global in pairs(reads) do
				assert.is_true(ALLOWED[global] == true, name .. ".lua reads the global " .. global)
			end
			assert.are.same({}, writes)
		end)
	end

	it("(the check itself) finds the platform globals of the adapter, which is allowed to use them", function()
		local reads = globalsOf("src/WorkspaceGateway/init.lua")
		for _, global in ipairs({ "game", "script", "task", "DateTime", "require" }) do
			assert.is_true(reads[global] == true, global)
		end
	end)

	it("uses no Lua feature that Luau lacks or changes", function()
		for _, name in ipairs(FILES) do
			local file = io.open(CORE .. name .. ".lua")
			local source = file:read("*a")
			file:close()
			for _, banned in ipairs({ "setfenv", "getfenv", "loadstring", "string.dump", "table.getn", "math.pow", "module(", "unpack(", "%%b", "%%f" }) do
				assert.is_nil(string.find(source, banned, 1, true), name .. ".lua uses " .. banned)
			end
		end
	end)
end)
