// /console/stats: submissions counted by form and status, in one environment.
import { h, replace, select } from '../dom.js';
import { heading } from '../ui.js';
import { chosenEnvironment, ENVIRONMENTS, environmentField } from './queue.js';

/** @typedef {import('../app.js').Signed} Signed */

/** @param {Signed} signed */
export async function renderStats(signed) {
  const environment = chosenEnvironment(signed.url.searchParams);
  const forms = await signed.gateway.stats(environment);
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  /** @param {number} n */
  const cell = (n) => h('td', { class: 'number' }, String(n));
  replace(
    signed.root,
    heading('Stats'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Choose the environment',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          signed.navigate(`/console/stats?environment=${encodeURIComponent(environmentSelect.value)}`);
        },
      },
      environmentField(environmentSelect),
      h('button', { type: 'submit' }, 'Show'),
    ),
    forms.length === 0
      ? h('p', { class: 'empty' }, 'This workspace has no application forms yet.')
      : h(
          'div',
          { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-labelledby': 'stats-caption' },
          h(
            'table',
            {},
            h('caption', { id: 'stats-caption' }, `Submissions by form (${environment === 'live' ? 'live' : 'test'})`),
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['Form', 'Submitted', 'Under review', 'Accepted', 'Rejected'].map((label) => h('th', { scope: 'col' }, label)),
              ),
            ),
            h(
              'tbody',
              {},
              forms.map((f) =>
                h(
                  'tr',
                  {},
                  h('th', { scope: 'row' }, f.formName ?? 'Without a form'),
                  cell(f.submitted),
                  cell(f.underReview),
                  cell(f.accepted),
                  cell(f.rejected),
                ),
              ),
            ),
          ),
        ),
  );
}
