// /console/staff: the roster, active staff and 50 a page by default, filtered by status, rank and environment (the
// member's last choice of environment by default); "On duty" on whoever is on shift now, with when their shift
// started in the workspace's time zone, and each week's progress against the requirement.
import { details, field, h, replace, select } from '../dom.js';
import { heading, messages, pagedResults } from '../ui.js';
import { onDutyBadge, startedAt, weekProgress } from './staff-parts.js';
import { chosen, chosenEnvironment, ENVIRONMENTS } from './queue.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../staff-gateway.js').RosterItem} RosterItem */
/** @typedef {import('../staff-gateway.js').RosterCursor} RosterCursor */

/** @type {readonly (readonly [string, string])[]} */
const STATUSES = [
  ['active', 'Active'],
  ['inactive', 'Inactive'],
  ['all', 'All'],
];

/** @param {Signed} signed */
export async function renderStaff(signed) {
  const params = signed.url.searchParams;
  const status = chosen(params, 'status', STATUSES);
  const environment = chosenEnvironment(params);
  const rank = (params.get('rank') ?? '').trim();
  const statusSelect = select('status', STATUSES, status);
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  const rankInput = h('input', { name: 'rank', type: 'text', value: rank, maxlength: '200', autocomplete: 'off' });
  const feedback = messages();
  const results = h('div', { class: 'results' });
  replace(
    signed.root,
    heading('Staff'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Filter the staff',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          const query = new URLSearchParams({ status: statusSelect.value, environment: environmentSelect.value });
          if (rankInput.value.trim() !== '') query.set('rank', rankInput.value.trim());
          signed.navigate(`/console/staff?${query.toString()}`);
        },
      },
      field('Status', statusSelect),
      field('Rank', rankInput, 'Exactly as it is written; empty for every rank.'),
      field('Environment', environmentSelect),
      h('button', { type: 'submit' }, 'Show'),
    ),
    feedback.element,
    results,
  );

  await pagedResults({
    results,
    feedback,
    read: (/** @type {RosterCursor | null} */ cursor) => signed.staff.roster({ status, rank, environment, cursor }),
    show: (page, cursor) => {
      const now = Date.now();
      return [
        page.staff.length === 0
          ? h(
              'p',
              { class: 'empty' },
              cursor
                ? 'No more staff.'
                : 'No staff match these filters. Choose another status or rank; staff join the workspace through its provisioning document or an accepted application.',
            )
          : h('ul', { class: 'cards', 'aria-label': 'Staff' }, page.staff.map((item) => staffCard(item, environment, signed.workspace.timezone, now))),
      ];
    },
  });
}

/**
 * @param {RosterItem} item
 * @param {string} environment
 * @param {string} timeZone the workspace's, in which a shift's start is shown
 * @param {number} now
 */
function staffCard(item, environment, timeZone, now) {
  const href = `/console/staff/${encodeURIComponent(item.id)}${environment === 'live' ? '' : `?environment=${environment}`}`;
  return h(
    'li',
    { class: 'card' },
    h('h2', { class: 'card-title' }, h('a', { href }, item.displayName), ' ', onDutyBadge(item.activeShift, now)),
    details([
      ['Game user', `${item.gameUsername} (${item.gameUserId})`],
      ['Rank', item.rank ?? '—'],
      ['Status', item.status === 'active' ? 'Active' : 'Inactive'],
      ...(item.activeShift === null ? [] : [/** @type {const} */ (['On shift since', startedAt(item.activeShift.startedAt, timeZone, now)])]),
      ['This week', weekProgress(item.week, `${item.displayName}: this week's progress`)],
    ]),
  );
}
