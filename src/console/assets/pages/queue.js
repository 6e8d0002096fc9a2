// /console/applications: the reviewers' queue, filtered by status, form and environment (kept in the address, so a
// filtered queue can be bookmarked and the back button returns to it), a page at a time.
import { details, field, h, replace, select, time } from '../dom.js';
import { heading, messages, pagedResults, statusBadge } from '../ui.js';
import { lastEnvironment, rememberEnvironment, rememberQueue } from '../session.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../gateway.js').QueueCursor} QueueCursor */
/** @typedef {import('../gateway.js').SubmissionItem} SubmissionItem */

/** @type {readonly (readonly [string, string])[]} */
export const QUEUE_STATUSES = [
  ['submitted,under_review', 'Awaiting a decision'],
  ['submitted', 'Submitted'],
  ['under_review', 'Under review'],
  ['accepted', 'Accepted'],
  ['rejected', 'Rejected'],
  ['submitted,under_review,accepted,rejected', 'All'],
];

/** @type {readonly (readonly [string, string])[]} */
export const ENVIRONMENTS = [
  ['live', 'Live'],
  ['test', 'Test'],
];

/**
 * The environment a list shows: the address's, else the one the member last chose, else live; remembered as the
 * member's choice for the next list.
 * @param {URLSearchParams} params
 */
export function chosenEnvironment(params) {
  const asked = params.get('environment') ?? lastEnvironment() ?? '';
  const environment = ENVIRONMENTS.some(([v]) => v === asked) ? asked : 'live';
  rememberEnvironment(environment);
  return environment;
}

/**
 * The environment filter, saying what each environment holds.
 * @param {HTMLSelectElement} control
 */
export function environmentField(control) {
  return field(
    'Environment',
    control,
    'Live: what the game and the bot send with live keys (real players). Test: what they send with test keys, while trying things out.',
  );
}

/**
 * The applicant by the name they go by: their display name, else their game username, else their game user id
 * (the game username, unique in the game, is shown beside it where the applicant is listed).
 * @param {SubmissionItem['applicant']} applicant
 */
export function applicantName(applicant) {
  return applicant.displayName ?? applicant.gameUsername ?? `Game user ${applicant.gameUserId}`;
}

/**
 * A query parameter of a filter form, if it is one of `allowed`; else the first allowed value.
 * @param {URLSearchParams} params
 * @param {string} name
 * @param {readonly (readonly [string, string])[]} allowed
 */
export function chosen(params, name, allowed) {
  const value = params.get(name) ?? '';
  return allowed.some(([v]) => v === value) ? value : (allowed[0]?.[0] ?? '');
}

/** @param {Signed} signed */
export async function renderQueue(signed) {
  const params = signed.url.searchParams;
  const status = chosen(params, 'status', QUEUE_STATUSES);
  const environment = chosenEnvironment(params);
  const forms = await signed.gateway.stats(environment);
  /** @type {(readonly [string, string])[]} */
  const formOptions = [['', 'Every form'], ...forms.flatMap((f) => (f.formId === null ? [] : [[f.formId, f.formName ?? f.formId]]))].map(
    ([value, label]) => /** @type {const} */ ([value ?? '', label ?? '']),
  );
  const formId = chosen(params, 'formId', formOptions);
  const shown = new URLSearchParams({ status, environment });
  if (formId) shown.set('formId', formId);
  rememberQueue(shown.toString());

  const statusSelect = select('status', QUEUE_STATUSES, status);
  const formSelect = select('formId', formOptions, formId);
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  const filters = h(
    'form',
    {
      class: 'filters',
      'aria-label': 'Filter the queue',
      onsubmit: (/** @type {Event} */ event) => {
        event.preventDefault();
        const query = new URLSearchParams({ status: statusSelect.value, environment: environmentSelect.value });
        if (formSelect.value) query.set('formId', formSelect.value);
        signed.navigate(`/console/applications?${query.toString()}`);
      },
    },
    field('Status', statusSelect),
    field('Form', formSelect),
    environmentField(environmentSelect),
    h('button', { type: 'submit' }, 'Show'),
  );
  const feedback = messages();
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  replace(signed.root, heading('Applications'), filters, feedback.element, results);

  await pagedResults({
    results,
    feedback,
    read: (/** @type {QueueCursor | null} */ cursor) => signed.gateway.queue({ status, formId, environment, cursor }),
    show: (page, cursor) => [
      page.submissions.length === 0
        ? h('p', { class: 'empty' }, cursor ? 'No more submissions.' : 'No submissions match these filters.')
        : h('ul', { class: 'cards', 'aria-label': 'Submissions' }, page.submissions.map((s) => row(s))),
    ],
  });
}

/** @param {SubmissionItem} submission */
function row(submission) {
  return h(
    'li',
    { class: 'card' },
    h('h2', { class: 'card-title' }, h('a', { href: `/console/applications/${submission.id}` }, applicantName(submission.applicant))),
    details([
      ['Game username', submission.applicant.gameUsername ?? '—'],
      ['Form', submission.formName ?? 'No form'],
      ['Status', statusBadge(submission.status)],
      ['Submitted', time(submission.createdAt)],
      ['Score', submission.score === null ? '—' : String(submission.score)],
    ]),
  );
}
