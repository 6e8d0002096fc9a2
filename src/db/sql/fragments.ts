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

/**
 * What recording an attempt's result changes in its delivery, from a row `results` (recordDeliveryResults): the
 * result's columns, the claim released.
 */
export const DELIVERY_RESULT_SET = `update webhook_deliveries set
  status = results.outcome,
  attempts = results.attempt,
  next_attempt_at = results.next_attempt_at,
  claimed_until = null,
  claimed_by = null,
  last_status = results.status,
  last_duration_ms = results.duration_ms,
  last_response = results.excerpt,
  last_error = results.error,
  updated_at = results.finished_at,
  delivered_at = coalesce(results.delivered_at, webhook_deliveries.delivered_at)`;

/**
 * The delivery a result applies to: its own, still claimed by the result's owner, hence still pending (a claim
 * takes only pending deliveries, and every change of status clears the claim). Not testing the status keeps the
 * partial index on pending deliveries out of the plan: on PostgreSQL, with statistics that took the pending
 * deliveries for a few rows, the planner read all of them through it for every chunk of results.
 */
export const DELIVERY_RESULT_WHERE = `where webhook_deliveries.id = results.id
  and webhook_deliveries.claimed_by = results.owner`;
