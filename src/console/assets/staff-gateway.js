// The staff side's API calls (docs/API.md, "Staff in the console"), with the shapes of their answers: the roster, a
// staff member's page, the leaderboard and who is on duty, which any member may read; and a staff member's rank
// changes, which members with `staff.rank` make (docs/ROBLOX.md).

/** @typedef {import('./api.js').Api} Api */
/** @typedef {{ totalMinutes: number, requiredMinutes: number, progressPercent: number }} WeekFigures */
/**
 * @typedef {object} RosterItem
 * @property {string} id
 * @property {string} displayName
 * @property {string} gameUserId
 * @property {string} gameUsername
 * @property {string | null} chatUserId
 * @property {string | null} departmentId
 * @property {string | null} rank
 * @property {'active' | 'inactive'} status
 * @property {WeekFigures} week
 * @property {{ id: string, startedAt: string } | null} activeShift
 */
/** @typedef {{ cursorDisplayName: string, cursorId: string }} RosterCursor */
/** @typedef {{ staff: RosterItem[], nextCursor: RosterCursor | null }} RosterPage */
/** @typedef {{ start: string, end: string, timezone: string }} Period */
/** @typedef {{ period: Period, totalSeconds: number, totalMinutes: number, completedShifts: number }} PeriodTotals */
/**
 * @typedef {object} StaffPage
 * @property {RosterItem} staff
 * @property {PeriodTotals & { requiredMinutes: number, progressPercent: number }} week
 * @property {PeriodTotals} month
 * @property {{ start: string, totalMinutes: number, requiredMinutes: number }[]} weeks
 * @property {{ id: string, startedAt: string, endedAt: string, minutes: number, endReason: string }[]} recentShifts
 * @property {{ id: string, startsAt: string, endsAt: string, status: import('./gateway.js').NoticeStatus, createdAt: string, decidedAt: string | null }[]} notices
 * @property {RankChange[]} rankChanges
 */
/** @typedef {'pending' | 'applied' | 'failed' | 'not_configured'} SyncStatus */
/**
 * A rank change and its sync to the Roblox group.
 * @typedef {object} RankChange
 * @property {string} id
 * @property {string | null} fromRank
 * @property {string} toRank
 * @property {string | null} reason
 * @property {string} changedBy
 * @property {string} createdAt
 * @property {{ status: SyncStatus, attempts: number, lastError: { status: number | null, code: string, message: string } | null, appliedAt: string | null }} sync
 */
/** @typedef {{ staff: { id: string, rank: string | null }, change: RankChange }} RankChanged */
/**
 * @typedef {object} LeaderboardEntry
 * @property {string} staffId
 * @property {string} displayName
 * @property {string} gameUsername
 * @property {number} totalMinutes
 * @property {number} completedShifts
 * @property {string} rank
 * @property {number} progressPercent
 * @property {number} position
 */
/** @typedef {{ cursorTotalSeconds: number, cursorStaffId: string }} LeaderboardCursor */
/** @typedef {{ entries: LeaderboardEntry[], nextCursor: LeaderboardCursor | null, period: Period }} Leaderboard */
/**
 * @typedef {object} ActiveShift
 * @property {string} id
 * @property {string} startedAt
 * @property {number} elapsedSeconds
 * @property {string} serverId
 * @property {{ id: string, displayName: string, gameUserId: string }} staff
 */
/** @typedef {{ cursorStartedAt: string, cursorId: string }} ActiveCursor */
/** @typedef {{ shifts: ActiveShift[], nextCursor: ActiveCursor | null }} ActivePage */

/**
 * A cursor's fields as query values.
 * @param {Record<string, string | number> | null} cursor
 * @returns {Record<string, string>}
 */
function cursorQuery(cursor) {
  return Object.fromEntries(Object.entries(cursor ?? {}).map(([name, value]) => [name, String(value)]));
}

/** @param {Api} api */
export function staffGateway(api) {
  return {
    /**
     * @param {{ status: string, rank: string, environment: string, cursor: RosterCursor | null }} filter
     * @returns {Promise<RosterPage>}
     */
    roster: async ({ status, rank, environment, cursor }) =>
      /** @type {RosterPage} */ (
        await api.call('/v1/staff', { query: { status, rank, environment, limit: '50', ...cursorQuery(cursor) } })
      ),
    /** @param {string} id @param {string} environment @returns {Promise<StaffPage>} */
    member: async (id, environment) =>
      /** @type {StaffPage} */ (await api.call(`/v1/staff/${encodeURIComponent(id)}`, { query: { environment } })),
    /**
     * @param {{ period: string, environment: string, cursor: LeaderboardCursor | null }} filter
     * @returns {Promise<Leaderboard>}
     */
    leaderboard: async ({ period, environment, cursor }) =>
      /** @type {Leaderboard} */ (
        await api.call('/v1/activity/leaderboard', { query: { period, environment, limit: '25', ...cursorQuery(cursor) } })
      ),
    /**
     * @param {{ environment: string, cursor: ActiveCursor | null }} filter
     * @returns {Promise<ActivePage>}
     */
    onDuty: async ({ environment, cursor }) =>
      /** @type {ActivePage} */ (
        await api.call('/v1/activity/shifts/active', { query: { environment, limit: '50', ...cursorQuery(cursor) } })
      ),
    /** @param {string} id @returns {Promise<RankChange[]>} the newest first */
    rankChanges: async (id) =>
      /** @type {{ changes: RankChange[] }} */ (await api.call(`/v1/staff/${encodeURIComponent(id)}/rank-changes`)).changes,
    /**
     * Gives the staff member `rank`, with a fresh Idempotency-Key; `reason` is left out when empty.
     * @param {string} id @param {string} rank @param {string} reason @returns {Promise<RankChanged>}
     */
    changeRank: async (id, rank, reason) =>
      /** @type {RankChanged} */ (
        await api.call(`/v1/staff/${encodeURIComponent(id)}/rank`, {
          method: 'POST',
          body: reason.trim() === '' ? { rank } : { rank, reason: reason.trim() },
          idempotent: true,
        })
      ),
  };
}

/** @typedef {ReturnType<typeof staffGateway>} StaffGateway */
