-- Loads the core the way the Roblox adapter does, through plain require (package.path points at Core/).
return {
	Config = require("Config"),
	Time = require("Time"),
	Retry = require("Retry"),
	Budget = require("Budget"),
	Log = require("Log"),
	Requester = require("Requester"),
	Heartbeats = require("Heartbeats"),
	Applications = require("Applications"),
	PlayerThrottle = require("PlayerThrottle"),
	ApplicationCentre = require("ApplicationCentre"),
	Client = require("Client"),
}
