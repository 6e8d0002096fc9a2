// /console/time-off: inactivity notices asked for by staff, filtered by status, with Approve and Deny (and an
// optional note) on the pending ones.
import { details, duration, field, h, replace, select, time, uid } from '../dom.js';
import { actionButtons, heading, messages, pagedResults, statusBadge } from '../ui.js';
import { chosen, chosenEnvironment, ENVIRONMENTS, environmentField } from './queue.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../gateway.js').Notice} Notice */
/** @typedef {import('../gateway.js').NoticeCursor} NoticeCursor */

/** @type {readonly (readonly [string, string])[]} */
const NOTICE_STATUSES = [
  ['pending', 'Pending'],
  ['approved', 'Approved'],
  ['denied', 'Denied'],
  ['cancelled', 'Cancelled'],
  ['pending,approved,denied,cancelled', 'All'],
];

/** @param {Signed} signed */
export async function renderTimeOff(signed) {
  const status = chosen(signed.url.searchParams, 'status', NOTICE_STATUSES);
  const environment = chosenEnvironment(signed.url.searchParams);
  const statusSelect = select('status', NOTICE_STATUSES, status);
  const environmentSelect = select('environment', ENVIRONMENTS, environment);
  const feedback = messages();
  const results = h('div', { class: 'results' });
  replace(
    signed.root,
    heading('Time off'),
    h(
      'form',
      {
        class: 'filters',
        'aria-label': 'Filter the notices',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          const query = new URLSearchParams({ status: statusSelect.value, environment: environmentSelect.value });
          signed.navigate(`/console/time-off?${query.toString()}`);
        },
      },
      field('Status', statusSelect),
      environmentField(environmentSelect),
      h('button', { type: 'submit' }, 'Show'),
    ),
    feedback.element,
    results,
  );

  await pagedResults({
    results,
    feedback,
    read: (/** @type {NoticeCursor | null} */ cursor) => signed.gateway.notices({ status, environment, cursor }),
    show: (page, cursor) => [
      page.notices.length === 0
        ? h('p', { class: 'empty' }, cursor ? 'No more notices.' : 'No notices match these filters.')
        : h('ul', { class: 'cards', 'aria-label': 'Notices' }, page.notices.map((n) => noticeCard(signed, n))),
    ],
    focus: 'h2',
  });
}

/**
 * One notice; a pending one with its note and the two decisions. The card is replaced by its decided state.
 * @param {Signed} signed
 * @param {Notice} notice
 */
function noticeCard(signed, notice) {
  const titleId = uid('notice');
  const card = h(
    'li',
    { class: 'card' },
    h('article', { 'aria-labelledby': titleId },
      h('h2', { class: 'card-title', id: titleId, tabindex: '-1' }, `${notice.staff.displayName} (game user ${notice.staff.gameUserId})`),
      details([
        ['Status', statusBadge(notice.status)],
        ['From', time(notice.startsAt)],
        ['Until', time(notice.endsAt)],
        ['Duration', duration(notice.startsAt, notice.endsAt)],
        ['Reason', h('span', { class: 'text' }, notice.reason)],
        ['Asked for', time(notice.createdAt)],
        ...(notice.decidedAt === null
          ? []
          : /** @type {[string, Node | string][]} */ ([
              ['Decided', time(notice.decidedAt)],
              ['Decided by', notice.decidedBy ?? '—'],
              ['Note', notice.decisionNote === null ? '—' : h('span', { class: 'text' }, notice.decisionNote)],
            ])),
      ]),
      notice.status === 'pending' ? decisionForm(signed, notice, (decided, text) => {
        const next = noticeCard(signed, decided);
        card.replaceWith(next);
        const status = h('p', { role: 'status', class: 'message success' }, text);
        next.querySelector('article')?.append(status);
        next.querySelector('h2')?.focus();
      }) : null,
    ),
  );
  return card;
}

/**
 * @param {Signed} signed
 * @param {Notice} notice
 * @param {(decided: Notice, text: string) => void} decided
 */
function decisionForm(signed, notice, decided) {
  const note = h('textarea', { name: 'note', rows: '2', maxlength: '1000' });
  const feedback = messages();
  const action = actionButtons(feedback);
  /** @param {'approve' | 'deny'} decision @param {string} label @param {string} className */
  const button = (decision, label, className) =>
    action(label, className, async () => {
      const result = /** @type {{ notice: Omit<Notice, 'staff' | 'decidedBy'> }} */ (
        await signed.gateway.decideNotice(notice.id, decision, note.value)
      );
      decided(
        { ...notice, ...result.notice, decidedBy: signed.me.userId },
        decision === 'approve' ? 'Approved.' : 'Denied.',
      );
    }, `${label} ${notice.staff.displayName}'s time off?`);
  return h(
    'div',
    { class: 'stack' },
    field('Note (optional)', note, 'Recorded with the decision; the staff member can see it.'),
    feedback.element,
    h('div', { class: 'actions' }, button('approve', 'Approve', 'positive'), button('deny', 'Deny', 'negative')),
  );
}
