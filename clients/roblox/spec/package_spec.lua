-- The module as Roblox developers install it: a Wally package whose Rojo project maps the module, with the
-- version in one place (wally.toml) and the module's own copy of it checked against that.
local json = require("dkjson")
local Config = require("Config")
local Harness = require("harness")

local function read(path)
	local file = assert(io.open(path))
	local text = file:read("*a")
	file:close()
	return text
end

-- The [package] table of wally.toml: its string values and arrays of strings (all this manifest uses).
local function wallyPackage()
	local fields, section = {}, nil
	for line in string.gmatch(read("wally.toml"), "[^\n]+") do
		local header = string.match(line, "^%s*%[([%w%-]+)%]%s*$")
		if header then
			section = header
		elseif section == "package" and not string.match(line, "^%s*#") then
			local name, value = string.match(line, '^%s*([%w%-]+)%s*=%s*"([^"]*)"%s*$')
			if name then
				fields[name] = value
			else
				local listName, items = string.match(line, "^%s*([%w%-]+)%s*=%s*%[(.*)%]%s*$")
				if listName then
					local list = {}
					for item in string.gmatch(items, '"([^"]*)"') do
						list[#list + 1] = item
					end
					fields[listName] = list
				end
			end
		end
	end
	return fields
end

describe("the package", function()
	it("is a server-realm Wally package named <scope>/workspace-gateway that leaves the tests out", function()
		local package = wallyPackage()
		assert.matches("^[a-z0-9%-]+/workspace%-gateway$", package.name)
		assert.matches("^%d+%.%d+%.%d+$", package.version)
		assert.are.equal("server", package.realm)
		assert.matches("^https://", package.registry)
		assert.are.equal("Apache-2.0", package.license)
		assert.are.same({ "spec", "e2e" }, package.exclude)
	end)

	it("has the version of wally.toml as the module's own version, sent with every request", function()
		local version = wallyPackage().version
		assert.are.equal(version, Config.VERSION)
		local h = Harness.new()
		h.client:start()
		h.join(1001)
		assert.are.equal("workspace-gateway-roblox/" .. version, h.service.requests[1].headers["X-Client-Version"])
	end)

	it("maps the module in its Rojo project, and the adapter loads every file of Core", function()
		local project = json.decode(read("default.project.json"))
		assert.are.equal("WorkspaceGateway", project.name)
		assert.are.equal("src/WorkspaceGateway", project.tree["$path"])
		local adapter = read(project.tree["$path"] .. "/init.lua")
		local listing = io.popen("ls " .. project.tree["$path"] .. "/Core")
		local files = {}
		for name in listing:lines() do
			files[#files + 1] = string.match(name, "^(.-)%.lua$")
		end
		listing:close()
		assert.is_true(#files >= 9)
		for _, name in ipairs(files) do
			assert.is_truthy(string.find(adapter, 'Core:WaitForChild("' .. name .. '")', 1, true), name)
		end
	end)
end)
