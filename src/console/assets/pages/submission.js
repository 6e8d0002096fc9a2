// /console/applications/<id>: one submission, its answers and history, the review (score and notes) and the
// decisions. Only what the member's permissions allow is offered; the API checks them again on every call.
import { details, field, h, replace, time, uid } from '../dom.js';
import { actionButtons, busy, heading, messages, statusBadge, statusLabel } from '../ui.js';
import { applicantName } from './queue.js';
import { queueAddress } from '../session.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../gateway.js').SubmissionDetail} SubmissionDetail */
/** @typedef {import('../gateway.js').Answer} Answer */
/** @typedef {import('../gateway.js').HistoryEntry} HistoryEntry */

/** @type {Readonly<Record<HistoryEntry['type'], string>>} */
const HISTORY_LABELS = {
  submitted: 'Submitted',
  marked_under_review: 'Marked under review',
  review_updated: 'Review updated',
  accepted: 'Accepted',
  rejected: 'Rejected',
};

/** @param {Answer['value']} value */
function answerText(value) {
  if (value === null || value === '') return h('span', { class: 'muted' }, 'No answer');
  if (Array.isArray(value)) return value.length === 0 ? h('span', { class: 'muted' }, 'None chosen') : value.join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  return h('span', { class: 'text' }, String(value));
}

/**
 * Who did it: a member by their user id (the gateway knows members by id only), an application by its name.
 * @param {HistoryEntry['actor']} actor
 */
function actorText(actor) {
  if (actor.type === 'dashboard_user') return actor.id;
  return `the application ${actor.name ?? actor.id}`;
}

/** @param {HistoryEntry} entry */
function historyItem(entry) {
  const who = actorText(entry.actor);
  return h(
    'li',
    {},
    h('p', {}, h('strong', {}, HISTORY_LABELS[entry.type] ?? entry.type), ' by ', who, ', ', time(entry.at)),
    entry.reviewNote === null ? null : h('p', { class: 'note text' }, entry.reviewNote),
  );
}

/**
 * @param {Signed} signed
 * @param {string} id
 * @param {string | null} [done] what the last action did, shown as status
 */
export async function renderSubmission(signed, id, done = null) {
  const submission = await signed.gateway.submission(id);
  if (!signed.root.isConnected) return;
  const final = submission.status === 'accepted' || submission.status === 'rejected';
  const { applicant } = submission;
  const feedback = messages();
  if (done) feedback.success(done);
  /** @param {string} text */
  const reload = (text) => renderSubmission(signed, id, text).then(() => signed.root.querySelector('h1')?.focus());

  replace(
    signed.root,
    h(
      'p',
      { class: 'back' },
      h('a', { href: queueAddress() }, 'Back to the queue'),
      // On a phone the decision is far down: one tap reaches it.
      final || !decides(signed, submission) ? null : [' · ', h('a', { href: '#decision', class: 'to-decision', onclick: toDecision }, 'Go to the decision')],
    ),
    heading(`Application from ${applicantName(applicant)}`),
    feedback.element,
    h(
      'section',
      { 'aria-labelledby': 'about' },
      h('h2', { id: 'about' }, 'About'),
      details([
        ['Status', statusBadge(submission.status)],
        ['Form', submission.formName ?? 'No form'],
        ['Environment', submission.environment === 'live' ? 'Live' : 'Test'],
        ['Game username', applicant.gameUsername ?? '—'],
        ['Display name', applicant.displayName ?? '—'],
        ['Game user id', applicant.gameUserId],
        ['Chat user id', applicant.chatUserId ?? '—'],
        ['Submitted', time(submission.createdAt)],
        ['Reviewed', time(submission.reviewedAt)],
        ['Decided', time(submission.decidedAt)],
        ['Staff member', submission.staffProfileId === null ? '—' : staffLink(submission)],
      ]),
    ),
    h(
      'section',
      { 'aria-labelledby': 'answers' },
      h('h2', { id: 'answers' }, 'Answers'),
      submission.answers.length === 0
        ? h('p', { class: 'muted' }, 'No answers.')
        : details(
            submission.answers.map((a) => [a.label, answerText(a.value)]),
            'answers',
          ),
    ),
    reviewSection(signed, submission, final, reload),
    final ? null : decisionSection(signed, submission, reload),
    h(
      'section',
      { 'aria-labelledby': 'history' },
      h('h2', { id: 'history' }, 'History'),
      h('ol', { class: 'history' }, submission.history.map(historyItem)),
    ),
  );
}

/**
 * The staff member an acceptance made of the applicant (or linked them to): a link to their page, in the
 * submission's environment.
 * @param {SubmissionDetail} submission
 */
function staffLink(submission) {
  const query = submission.environment === 'live' ? '' : `?environment=${submission.environment}`;
  const href = `/console/staff/${encodeURIComponent(submission.staffProfileId ?? '')}${query}`;
  return h('a', { href }, `${applicantName(submission.applicant)}'s staff page`);
}

/**
 * Score and reviewer notes: a form for a reviewer while the submission is open, else the values.
 * @param {Signed} signed
 * @param {SubmissionDetail} submission
 * @param {boolean} final
 * @param {(text: string) => Promise<unknown>} reload
 */
function reviewSection(signed, submission, final, reload) {
  const title = h('h2', { id: 'review' }, 'Review');
  if (final || !signed.can('applications.review')) {
    return h(
      'section',
      { 'aria-labelledby': 'review' },
      title,
      details([
        ['Score', submission.score === null ? '—' : String(submission.score)],
        ['Reviewer notes', submission.reviewerNotes === null ? '—' : h('span', { class: 'text' }, submission.reviewerNotes)],
      ]),
    );
  }
  const score = h('input', { type: 'number', name: 'score', min: '0', max: '100', step: 'any', inputmode: 'decimal' });
  score.value = submission.score === null ? '' : String(submission.score);
  const notes = h('textarea', { name: 'reviewerNotes', rows: '5', maxlength: '5000' });
  notes.value = submission.reviewerNotes ?? '';
  const save = h('button', { type: 'submit' }, 'Save review');
  const feedback = messages();
  return h(
    'section',
    { 'aria-labelledby': 'review' },
    title,
    h(
      'form',
      {
        class: 'stack',
        'aria-labelledby': 'review',
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          void busy([save], async () => {
            feedback.clear();
            try {
              const text = score.value.trim();
              await signed.gateway.saveReview(submission.id, {
                score: text === '' ? null : Number(text),
                reviewerNotes: notes.value.trim() === '' ? null : notes.value,
              });
              await reload('Review saved.');
            } catch (error) {
              feedback.error(error);
            }
          });
        },
      },
      field('Score (0 to 100, empty for none)', score),
      field('Reviewer notes', notes, 'Seen by reviewers only; never shown to the applicant.'),
      feedback.element,
      h('div', { class: 'actions' }, save),
    ),
  );
}

/**
 * Moves to the decision without changing the address (a new address would render the page again).
 * @param {Event} event
 */
function toDecision(event) {
  event.preventDefault();
  const title = document.getElementById('decision');
  title?.scrollIntoView({ block: 'start' });
  title?.focus();
}

/**
 * Whether the decision section offers the member anything.
 * @param {Signed} signed
 * @param {SubmissionDetail} submission
 */
function decides(signed, submission) {
  return (signed.can('applications.review') && submission.status === 'submitted') || signed.can('applications.decide');
}

/**
 * Mark under review, Accept and Reject, as the member's permissions allow, with an optional note for the history.
 * @param {Signed} signed
 * @param {SubmissionDetail} submission
 * @param {(text: string) => Promise<unknown>} reload
 */
function decisionSection(signed, submission, reload) {
  const mayMark = signed.can('applications.review') && submission.status === 'submitted';
  const mayDecide = signed.can('applications.decide');
  if (!mayMark && !mayDecide) return null;
  const note = h('textarea', { name: 'reviewNote', rows: '3', maxlength: '5000' });
  // The box starts from the workspace's setting, and the acceptance always says which was chosen: left as it is,
  // accepting does what the workspace is set to do.
  const profileDefault = signed.workspace.createStaffProfileOnAccept;
  const createProfile =
    mayDecide && signed.can('staff.create')
      ? h('input', { type: 'checkbox', name: 'createStaffProfile', id: uid('profile'), checked: profileDefault })
      : null;
  const profileHint = createProfile
    ? h(
        'p',
        { class: 'hint', id: uid('profile-hint') },
        `This workspace ${profileDefault ? 'creates' : 'does not create'} a staff profile on acceptance unless you change this.`,
      )
    : null;
  if (createProfile && profileHint) createProfile.setAttribute('aria-describedby', profileHint.id);
  const feedback = messages();
  const action = actionButtons(feedback);
  /**
   * @param {string} label
   * @param {string} className
   * @param {() => Promise<string>} act resolves with what was done
   * @param {string} [question] asked before an action that cannot be undone
   */
  const button = (label, className, act, question) => action(label, className, async () => {
      await reload(await act());
    }, question);
  const id = submission.id;
  return h(
    'section',
    { 'aria-labelledby': 'decision' },
    h('h2', { id: 'decision', tabindex: '-1' }, 'Decision'),
    h(
      'div',
      { class: 'stack' },
      field('Review note (optional)', note, 'Recorded with the action in the history; it does not change the reviewer notes.'),
      createProfile
        ? h('div', {}, h('div', { class: 'check' }, createProfile, h('label', { for: createProfile.id }, 'Create staff profile')), profileHint)
        : null,
      feedback.element,
      h(
        'div',
        { class: 'actions' },
        mayMark
          ? button('Mark under review', 'secondary', async () => {
              await signed.gateway.markUnderReview(id, note.value);
              return `Marked ${statusLabel('under_review').toLowerCase()}.`;
            })
          : null,
        mayDecide
          ? button('Accept', 'positive', async () => {
              const result = await signed.gateway.accept(id, note.value, createProfile ? createProfile.checked : undefined);
              if (result.staffProfileId === null) return 'Accepted.';
              return result.staffProfileCreated
                ? 'Accepted. A staff profile was created: their staff page is linked above.'
                : 'Accepted. Linked to their existing staff profile: their staff page is linked above.';
            }, `Accept ${applicantName(submission.applicant)}'s application?`)
          : null,
        mayDecide
          ? button('Reject', 'negative', async () => {
              await signed.gateway.reject(id, note.value);
              return 'Rejected.';
            }, `Reject ${applicantName(submission.applicant)}'s application?`)
          : null,
      ),
    ),
  );
}
