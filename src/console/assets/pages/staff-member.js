// /console/staff/<id>: one staff member's week and month, the last 8 weeks against the requirement, recent shifts,
// time off and rank history, with "Change rank" for members with `staff.rank` (change-rank.js). Times are in the
// workspace's time zone.
import { details, field, h, replace, select } from '../dom.js';
import { heading, statusBadge } from '../ui.js';
import { minutesText, onDutyBadge, weekProgress, zonedTime } from './staff-parts.js';
import { rankPanel } from './change-rank.js';
import { chosenEnvironment, ENVIRONMENTS } from './queue.js';
import { weekChart } from './week-chart.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../staff-gateway.js').StaffPage} StaffPage */

/** @type {Readonly<Record<string, string>>} */
const END_REASONS = {
  manual: 'Stopped',
  player_left: 'Left the game',
  server_shutdown: 'Server shut down',
  heartbeat_timeout: 'Timed out',
};

/**
 * @param {Signed} signed
 * @param {string} id
 */
export async function renderStaffMember(signed, id) {
  const environment = chosenEnvironment(signed.url.searchParams);
  const page = await signed.staff.member(id, environment);
  const zone = page.week.period.timezone;
  const { staff } = page;
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  const rank = rankPanel(signed, page, zone);
  replace(
    signed.root,
    h('p', { class: 'back' }, h('a', { href: '/console/staff' }, 'Back to the staff')),
    heading(staff.displayName),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Choose the environment',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          signed.navigate(`/console/staff/${encodeURIComponent(staff.id)}?environment=${encodeURIComponent(environmentSelect.value)}`);
        },
      },
      field('Environment', environmentSelect),
      h('button', { type: 'submit' }, 'Show'),
    ),
    details([
      ['Game user', `${staff.gameUsername} (${staff.gameUserId})`],
      ['Rank', rank.current],
      ['Status', staff.status === 'active' ? 'Active' : 'Inactive'],
      ['On duty', onDutyBadge(staff.activeShift, Date.now()) ?? 'No'],
      ['Time zone', zone],
    ]),
    rank.control,
    section('This week', [
      weekProgress(page.week, 'This week\'s progress'),
      details([
        ['From', zonedTime(page.week.period.start, zone)],
        ['Completed shifts', String(page.week.completedShifts)],
      ]),
    ]),
    section('This month', [
      details([
        ['Worked', minutesText(page.month.totalMinutes)],
        ['Completed shifts', String(page.month.completedShifts)],
        ['From', zonedTime(page.month.period.start, zone)],
      ]),
    ]),
    section('The last 8 weeks', [weekChart(page.weeks, zone)]),
    section('Recent shifts', [recentShifts(page, zone)]),
    section('Time off', [timeOff(page, zone)]),
    section('Rank history', [rank.history]),
  );
}

/**
 * @param {string} title
 * @param {Node[]} content
 */
function section(title, content) {
  return h('section', {}, h('h2', {}, title), ...content);
}

/** @param {StaffPage} page @param {string} zone */
function recentShifts(page, zone) {
  if (page.recentShifts.length === 0) {
    return h('p', { class: 'empty' }, 'No completed shifts in this environment yet. Shifts appear here once a game server stops them.');
  }
  return h(
    'ul',
    { class: 'plain-list', 'aria-label': 'Recent shifts' },
    page.recentShifts.map((shift) =>
      h('li', {}, zonedTime(shift.startedAt, zone), ` · ${minutesText(shift.minutes)} · ${END_REASONS[shift.endReason] ?? shift.endReason}`),
    ),
  );
}

/** @param {StaffPage} page @param {string} zone */
function timeOff(page, zone) {
  if (page.notices.length === 0) {
    return h('p', { class: 'empty' }, 'No time off asked for in this environment. Staff ask for it through the chat bot.');
  }
  return h(
    'ul',
    { class: 'plain-list', 'aria-label': 'Time off' },
    page.notices.map((notice) => h('li', {}, zonedTime(notice.startsAt, zone), ' to ', zonedTime(notice.endsAt, zone), ' ', statusBadge(notice.status))),
  );
}
