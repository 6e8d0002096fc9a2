--[[
Time: pure date arithmetic for the core (no os.date, no platform clock).

The clock handed to the client gives Unix milliseconds; this module turns them into the ISO-8601 text
the service accepts, and reads the HTTP-date form of a Retry-After header back into Unix seconds.
]]

local Time = {}

-- Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
local function daysFromCivil(year, month, day) -- (number, number, number) -> number
	if month <= 2 then
		year = year - 1
	end
	local era = math.floor(year / 400)
	local yearOfEra = year - era * 400
	local shiftedMonth = month > 2 and month - 3 or month + 9
	local dayOfYear = math.floor((153 * shiftedMonth + 2) / 5) + day - 1
	local dayOfEra = yearOfEra * 365 + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100) + dayOfYear
	return era * 146097 + dayOfEra - 719468
end

-- Inverse of daysFromCivil.
local function civilFromDays(days) -- (number) -> (number, number, number)
	days = days + 719468
	local era = math.floor(days / 146097)
	local dayOfEra = days - era * 146097
	local yearOfEra = math.floor((dayOfEra - math.floor(dayOfEra / 1460) + math.floor(dayOfEra / 36524)
		- math.floor(dayOfEra / 146096)) / 365)
	local year = yearOfEra + era * 400
	local dayOfYear = dayOfEra - (365 * yearOfEra + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100))
	local shiftedMonth = math.floor((5 * dayOfYear + 2) / 153)
	local day = dayOfYear - math.floor((153 * shiftedMonth + 2) / 5) + 1
	local month = shiftedMonth < 10 and shiftedMonth + 3 or shiftedMonth - 9
	if month <= 2 then
		year = year + 1
	end
	return year, month, day
end

--- "2026-11-24T21:47:05.123Z" for a count of Unix milliseconds.
function Time.isoFromUnixMillis(unixMillis) -- (number) -> string
	local millis = math.floor(unixMillis)
	local seconds = math.floor(millis / 1000)
	local fraction = millis - seconds * 1000
	local days = math.floor(seconds / 86400)
	local secondOfDay = seconds - days * 86400
	local year, month, day = civilFromDays(days)
	local hour = math.floor(secondOfDay / 3600)
	local minute = math.floor((secondOfDay - hour * 3600) / 60)
	local second = secondOfDay - hour * 3600 - minute * 60
	return string.format("%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, month, day, hour, minute, second, fraction)
end

local MONTHS = { Jan = 1, Feb = 2, Mar = 3, Apr = 4, May = 5, Jun = 6, Jul = 7, Aug = 8, Sep = 9, Oct = 10, Nov = 11, Dec = 12 }

--- Unix seconds of an IMF-fixdate ("Wed, 21 Oct 2015 07:28:00 GMT"), or nil when the text is not one.
function Time.unixFromHttpDate(text) -- (string) -> number?
	local day, monthName, year, hour, minute, second =
		string.match(text, "^%a%a%a, (%d%d) (%a%a%a) (%d%d%d%d) (%d%d):(%d%d):(%d%d) GMT$")
	local month = monthName and MONTHS[monthName]
	if not month then
		return nil
	end
	local days = daysFromCivil(tonumber(year), month, tonumber(day))
	return days * 86400 + tonumber(hour) * 3600 + tonumber(minute) * 60 + tonumber(second)
end

return Time
