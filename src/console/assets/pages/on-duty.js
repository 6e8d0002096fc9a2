// /console/on-duty: the shifts under way now, oldest first, with when each started (in the workspace's time zone)
// and how long it has run; in the member's last choice of environment by default.
import { details, field, h, replace, select } from '../dom.js';
import { heading, messages, pagedResults } from '../ui.js';
import { elapsedText, startedAt } from './staff-parts.js';
import { chosenEnvironment, ENVIRONMENTS } from './queue.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../staff-gateway.js').ActiveCursor} ActiveCursor */

/** @param {Signed} signed */
export async function renderOnDuty(signed) {
  const environment = chosenEnvironment(signed.url.searchParams);
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  const feedback = messages();
  const results = h('div', { class: 'results' });
  replace(
    signed.root,
    heading('On duty'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Choose the environment',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          signed.navigate(`/console/on-duty?environment=${encodeURIComponent(environmentSelect.value)}`);
        },
      },
      field('Environment', environmentSelect),
      h('button', { type: 'submit' }, 'Show'),
    ),
    feedback.element,
    results,
  );

  await pagedResults({
    results,
    feedback,
    read: (/** @type {ActiveCursor | null} */ cursor) => signed.staff.onDuty({ environment, cursor }),
    show: (page, cursor) => {
      const now = Date.now();
      return [
        page.shifts.length === 0
          ? h(
              'p',
              { class: 'empty' },
              cursor ? 'No more shifts.' : 'Nobody is on duty right now. A shift shows here as soon as a game server starts it.',
            )
          : h(
              'ul',
              { class: 'cards', 'aria-label': 'Shifts under way' },
              page.shifts.map((shift) =>
                h(
                  'li',
                  { class: 'card' },
                  h('h2', { class: 'card-title' }, h('a', { href: `/console/staff/${encodeURIComponent(shift.staff.id)}` }, shift.staff.displayName)),
                  details([
                    ['Started', startedAt(shift.startedAt, signed.workspace.timezone, now)],
                    ['On duty for', elapsedText(shift.elapsedSeconds)],
                    ['Game user', shift.staff.gameUserId],
                    ['Server', h('code', {}, shift.serverId)],
                  ]),
                ),
              ),
            ),
      ];
    },
  });
}
