// Pieces every page uses: its heading, the place its messages appear, status labels, paging.
import { h, replace } from './dom.js';

/**
 * The page's heading; focusable, so a navigation can move the keyboard and screen readers to it.
 * @param {string} text
 */
export function heading(text) {
  return h('h1', { tabindex: '-1', class: 'page-title' }, text);
}

/**
 * Where a page or a form reports back: errors as alerts (announced at once), successes and questions as status.
 * @returns {{ element: HTMLElement, error: (error: unknown) => void, success: (text: string) => void, ask: (text: string) => void, clear: () => void }}
 */
export function messages() {
  const element = h('div', { class: 'messages' });
  return {
    element,
    error(error) {
      replace(element, h('p', { role: 'alert', class: 'message error' }, errorText(error)));
    },
    success(text) {
      replace(element, h('p', { role: 'status', class: 'message success' }, text));
    },
    ask(text) {
      replace(element, h('p', { role: 'status', class: 'message question' }, text));
    },
    clear() {
      replace(element);
    },
  };
}

/**
 * An error's message as the API gave it (the envelope's `message`), with its request id for support.
 * @param {unknown} error
 */
export function errorText(error) {
  if (error instanceof Error) {
    const requestId = 'requestId' in error && typeof error.requestId === 'string' ? error.requestId : null;
    return requestId ? `${error.message} (request ${requestId})` : error.message;
  }
  return String(error);
}

/** @type {Readonly<Record<string, string>>} */
const STATUS_LABELS = {
  submitted: 'Submitted',
  under_review: 'Under review',
  accepted: 'Accepted',
  rejected: 'Rejected',
  pending: 'Pending',
  approved: 'Approved',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

/** @param {string} status */
export function statusLabel(status) {
  return STATUS_LABELS[status] ?? status;
}

/** @param {string} status */
export function statusBadge(status) {
  return h('span', { class: `badge badge-${status}` }, statusLabel(status));
}

/**
 * Runs a button's action once at a time: the button is disabled and marked busy until it settles.
 * @param {HTMLButtonElement[]} buttons every button of the form, disabled together
 * @param {() => Promise<void>} action
 */
export async function busy(buttons, action) {
  for (const button of buttons) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  try {
    await action();
  } finally {
    for (const button of buttons) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }
}

/**
 * Buttons of one form that act one at a time: while one runs, every button of the group is busy (see `busy`);
 * the form's feedback is cleared when one starts and shows the error when it fails. A button given a `question`
 * (an action that cannot be undone) asks first: its first press shows the question and turns it into
 * "Confirm: <label>", which acts on the next press; pressing another button of the group asks nothing more.
 * @param {ReturnType<typeof messages>} feedback
 * @returns {(label: string, className: string, act: () => Promise<void>, question?: string) => HTMLButtonElement}
 */
export function actionButtons(feedback) {
  /** @type {HTMLButtonElement[]} */
  const buttons = [];
  /** The button waiting for its confirmation, and how it goes back to its label. @type {{ button: HTMLButtonElement, reset: () => void } | null} */
  let asking = null;
  return (label, className, act, question) => {
    const reset = () => {
      button.textContent = label;
    };
    const button = h(
      'button',
      {
        type: 'button',
        class: className,
        onclick: () => {
          const confirmed = asking?.button === button;
          asking?.reset();
          asking = null;
          if (question && !confirmed) {
            button.textContent = `Confirm: ${label.toLowerCase()}`;
            asking = { button, reset };
            feedback.ask(`${question} This cannot be undone: press "Confirm: ${label.toLowerCase()}" to go ahead.`);
            return;
          }
          void busy(buttons, async () => {
            feedback.clear();
            try {
              await act();
            } catch (error) {
              feedback.error(error);
            }
          });
        },
      },
      label,
    );
    buttons.push(button);
    return button;
  };
}

/**
 * "Next page" and, past the first, "First page", for a keyset-paged list.
 * @param {{ hasNext: boolean, onFirstPage: boolean, next: () => void, first: () => void }} paging
 */
export function pager({ hasNext, onFirstPage, next, first }) {
  return h(
    'nav',
    { class: 'pager', 'aria-label': 'Pages' },
    onFirstPage ? null : h('button', { type: 'button', class: 'secondary', onclick: first }, 'First page'),
    hasNext ? h('button', { type: 'button', onclick: next }, 'Next page') : null,
  );
}

/**
 * A list read a page at a time into `results`, with the pager below it: `read(cursor)` fetches a page (the first
 * with null), `show(page, cursor)` draws it (with a cursor, a later page: its empty state says there are no more).
 * A page the pager moved to has its first `focus` (a selector: its first link unless told) focused; a failure is
 * shown in `feedback`.
 * @template C
 * @template {{ nextCursor: C | null }} P
 * @param {{ results: HTMLElement, feedback: { error: (error: unknown) => void, clear: () => void }, read: (cursor: C | null) => Promise<P>, show: (page: P, cursor: C | null) => Node[], focus?: string }} list
 * @returns {Promise<void>}
 */
export async function pagedResults({ results, feedback, read, show, focus = 'a' }) {
  /** @param {C | null} cursor @param {boolean} paged */
  const load = async (cursor, paged) => {
    feedback.clear();
    try {
      const page = await read(cursor);
      replace(
        results,
        ...show(page, cursor),
        pager({
          hasNext: page.nextCursor !== null,
          onFirstPage: cursor === null,
          next: () => void load(page.nextCursor, true),
          first: () => void load(null, true),
        }),
      );
      if (paged) /** @type {HTMLElement | null} */ (results.querySelector(focus))?.focus();
    } catch (error) {
      feedback.error(error);
    }
  };
  await load(null, false);
}
