// /console/leaderboard: staff ranked by time worked this week (default) or this month, with their progress.
import { field, h, replace, select } from '../dom.js';
import { heading, messages, pagedResults } from '../ui.js';
import { minutesText, zonedTime } from './staff-parts.js';
import { chosen, chosenEnvironment, ENVIRONMENTS } from './queue.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../staff-gateway.js').LeaderboardCursor} LeaderboardCursor */

/** @type {readonly (readonly [string, string])[]} */
const PERIODS = [
  ['week', 'This week'],
  ['month', 'This month'],
];

/** @param {Signed} signed */
export async function renderLeaderboard(signed) {
  const params = signed.url.searchParams;
  const period = chosen(params, 'period', PERIODS);
  const environment = chosenEnvironment(params);
  const periodSelect = select('period', PERIODS, period);
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  const feedback = messages();
  const results = h('div', { class: 'results' });
  replace(
    signed.root,
    heading('Leaderboard'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Choose the period',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          const query = new URLSearchParams({ period: periodSelect.value, environment: environmentSelect.value });
          signed.navigate(`/console/leaderboard?${query.toString()}`);
        },
      },
      field('Period', periodSelect),
      field('Environment', environmentSelect),
      h('button', { type: 'submit' }, 'Show'),
    ),
    feedback.element,
    results,
  );

  await pagedResults({
    results,
    feedback,
    read: (/** @type {LeaderboardCursor | null} */ cursor) => signed.staff.leaderboard({ period, environment, cursor }),
    show: (board, cursor) => {
      const zone = board.period.timezone;
      return [
        h('p', { class: 'muted' }, 'From ', zonedTime(board.period.start, zone), ' to ', zonedTime(board.period.end, zone), ` (${zone})`),
        board.entries.length === 0
          ? h('p', { class: 'empty' }, cursor ? 'No more staff.' : 'No active staff to rank yet. Staff join the workspace through its provisioning document or an accepted application.')
          : h(
              'ol',
              { class: 'cards ranking', 'aria-label': 'Ranking' },
              board.entries.map((entry) =>
                h(
                  'li',
                  { class: 'card', value: String(entry.position) },
                  h('h2', { class: 'card-title' }, `${entry.position}. `, h('a', { href: `/console/staff/${encodeURIComponent(entry.staffId)}` }, entry.displayName)),
                  h(
                    'p',
                    { class: 'figures' },
                    `${minutesText(entry.totalMinutes)} in ${entry.completedShifts} ${entry.completedShifts === 1 ? 'shift' : 'shifts'} · ${entry.progressPercent} % of the requirement${entry.rank ? ` · ${entry.rank}` : ''}`,
                  ),
                ),
              ),
            ),
      ];
    },
  });
}
