/**
 * Statement text both stores share word for word (no values in it), used by several named statements of each
 * (sqlite.ts, postgres.ts).
 */

/** A staff member with their department's fields (null without one): `StaffProfileRow` (index.ts). */
export const STAFF_PROFILE_SELECT = `select s.id, s.workspace_id, s.display_name, s.game_user_id, s.game_username, s.chat_user_id, s.rank, s.status,
       s.weekly_required_minutes, d.id as department_id, d.name as department_name,
       d.weekly_required_minutes as department_weekly_required_minutes
from staff as s
left join departments as d on d.id = s.department_id`;

/**
 * The statuses of a submission awaiting review, as an SQL list: the applications' `PENDING_STATUSES` (the store
 * knows no feature; test/db/sql-snapshots.test.ts checks the two agree).
 */
export const PENDING_STATUS_LIST = "('submitted', 'under_review')";
