// A staff member's rank on their page (docs/CONSOLE.md): the rank held, the rank history with each change's sync to
// the Roblox group and, for members with `staff.rank`, "Change rank": one of the workspace's assignable ranks and an
// optional reason, then the change's sync status as it moves (docs/ROBLOX.md, "Rank changes").
import { field, h, replace } from '../dom.js';
import { busy, errorText, messages } from '../ui.js';
import { zonedTime } from './staff-parts.js';

/** @typedef {import('../app.js').Signed} Signed */
/** @typedef {import('../staff-gateway.js').StaffPage} StaffPage */
/** @typedef {import('../staff-gateway.js').RankChange} RankChange */

/** A pending change is read again every POLL_MS, at most POLL_TIMES times, while its page is shown. */
const POLL_MS = 2000;
const POLL_TIMES = 30;
/** The page lists the last 10 changes, as `GET /v1/staff/{staffId}` gives them. */
const HISTORY = 10;
const REASON_MAX = 500;

/** @type {Readonly<Record<string, string>>} */
const SYNC_LABELS = { pending: 'Pending', applied: 'Applied', failed: 'Failed', not_configured: 'Not synced' };

/** Roblox's `code` and `message` of the last failed try. @param {RankChange} change */
function robloxAnswer(change) {
  const error = change.sync.lastError;
  return error ? `${error.code}: ${error.message}` : '';
}

/** The text as a sentence: a full stop unless it ends in one of its own. @param {string} text */
const sentence = (text) => (/[.!?…]$/.test(text) ? text : `${text}.`);

/**
 * Where a change's sync stands, in words.
 * @param {RankChange} change
 * @param {boolean} [stillPending] the page has stopped looking while it was pending
 */
function syncText(change, stillPending = false) {
  switch (change.sync.status) {
    case 'applied':
      return 'applied (the member holds the new role in the group).';
    case 'failed':
      return (
        `failed. ${sentence(`Roblox answered ${robloxAnswer(change)}`)} The rank here stays changed: fix the cause (the API key, ` +
        'the member\'s place in the group, the role) and change the rank again, or set the role in the group by hand.'
      );
    case 'not_configured':
      return 'not synced (the workspace has no Roblox group set up, or neither rank has a role in it); nothing was sent.';
    default:
      if (stillPending) return 'still pending. The gateway keeps trying for up to 24 hours; reload the page to see the outcome.';
      return change.sync.lastError
        ? `pending. ${sentence(`Roblox answered ${robloxAnswer(change)}`)} Trying again.`
        : 'pending, waiting to be applied…';
  }
}

/** @param {RankChange[]} changes @param {string} zone */
function historyList(changes, zone) {
  if (changes.length === 0) return h('p', { class: 'empty' }, 'No rank changes recorded.');
  return h(
    'ul',
    { class: 'plain-list', 'aria-label': 'Rank history' },
    changes.map((change) =>
      h(
        'li',
        {},
        zonedTime(change.createdAt, zone),
        ` · ${change.fromRank ?? 'no rank'} to ${change.toRank} · by ${change.changedBy}`,
        change.reason === null ? null : ` · ${change.reason}`,
        ' ',
        h('span', { class: `badge badge-${change.sync.status}` }, `Roblox: ${SYNC_LABELS[change.sync.status] ?? change.sync.status}`),
        change.sync.status === 'failed' ? ` ${robloxAnswer(change)}` : null,
      ),
    ),
  );
}

/** @param {number} ms */
const pause = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));

/**
 * The rank shown in the page's facts, the rank history, and (for members with `staff.rank`) the control that changes
 * the rank; a change updates all three.
 * @param {Signed} signed
 * @param {StaffPage} page
 * @param {string} zone
 */
export function rankPanel(signed, page, zone) {
  const staff = page.staff;
  let held = staff.rank;
  let changes = page.rankChanges.slice(0, HISTORY);
  const current = h('span', {}, held ?? '—');
  const history = h('div', {}, historyList(changes, zone));
  /** The change whose sync the page shows; a newer change takes over. @type {string | null} */
  let following = null;
  const status = h('div', { role: 'status', class: 'sync-status' });
  const place = h('div', {});

  /** @param {RankChange} change @param {boolean} [stillPending] */
  const showSync = (change, stillPending) => {
    const settled = change.sync.status === 'applied' ? 'success' : change.sync.status === 'failed' ? 'error' : 'info';
    replace(status, h('p', { class: `message ${settled}` }, `Rank changed to ${change.toRank}. Roblox group: ${syncText(change, stillPending)}`));
  };

  /** Reads the changes again while this one is pending, until it settles, the page is left or a newer one is made. */
  const follow = async (/** @type {RankChange} */ change) => {
    const mine = () => following === change.id && signed.root.isConnected;
    for (let i = 0; i < POLL_TIMES; i += 1) {
      await pause(POLL_MS);
      if (!mine()) return;
      let latest;
      try {
        latest = await signed.staff.rankChanges(staff.id);
      } catch (error) {
        if (mine()) replace(status, h('p', { class: 'message error' }, `The sync could not be checked: ${errorText(error)}`));
        return;
      }
      if (!mine()) return;
      changes = latest.slice(0, HISTORY);
      replace(history, historyList(changes, zone));
      const now = latest.find((c) => c.id === change.id);
      if (!now) return;
      showSync(now);
      if (now.sync.status !== 'pending') return;
    }
    showSync(changes.find((c) => c.id === change.id) ?? change, true);
  };

  const show = (/** @type {boolean} */ focus) => {
    const button = offer();
    replace(place, button);
    if (focus && button instanceof HTMLButtonElement) button.focus();
  };

  /** "Change rank", or why there is none. */
  const offer = () => {
    const ranks = signed.workspace.ranks;
    if (ranks.length === 0) {
      return h('p', { class: 'hint' }, 'This workspace has no ranks to choose from: they are listed in its provisioning document.');
    }
    const heldRank = ranks.find((r) => r.name === held);
    if (heldRank && !heldRank.assignable) {
      return h('p', { class: 'hint' }, `The rank ${heldRank.name} is not assignable: the console neither gives nor takes it.`);
    }
    const choices = ranks.filter((r) => r.assignable && r.name !== held);
    if (choices.length === 0) return h('p', { class: 'hint' }, 'No other rank can be given.');
    return h('button', { type: 'button', class: 'secondary', onclick: () => edit(choices.map((r) => r.name)) }, 'Change rank');
  };

  /** The form: a rank, a reason, what will happen; Save or Cancel. @param {string[]} names */
  const edit = (names) => {
    const choice = h('select', { name: 'rank' }, names.map((name) => h('option', { value: name }, name)));
    const reason = h('textarea', { name: 'reason', rows: '2', maxlength: String(REASON_MAX) });
    const feedback = messages();
    const save = h('button', { type: 'submit' }, 'Save rank change');
    const cancel = h('button', { type: 'button', class: 'secondary', onclick: () => show(true) }, 'Cancel');
    const form = h(
      'form',
      {
        class: 'stack rank-form',
        onkeydown: (/** @type {Event} */ event) => {
          if ('key' in event && event.key === 'Escape' && !save.disabled) show(true);
        },
        onsubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          void busy([save, cancel], async () => {
            feedback.clear();
            try {
              const result = await signed.staff.changeRank(staff.id, choice.value, reason.value);
              following = result.change.id;
              held = result.staff.rank;
              current.textContent = held ?? '—';
              changes = [result.change, ...changes.filter((c) => c.id !== result.change.id)].slice(0, HISTORY);
              replace(history, historyList(changes, zone));
              showSync(result.change);
              show(true);
              if (result.change.sync.status === 'pending') void follow(result.change);
            } catch (error) {
              feedback.error(error);
            }
          });
        },
      },
      h(
        'fieldset',
        {},
        h('legend', {}, `Change ${staff.displayName}'s rank`),
        h(
          'p',
          { class: 'hint' },
          `${staff.displayName} holds ${held ?? 'no rank'}. The rank you save replaces it at once and is recorded in ` +
            `the rank history as changed by ${signed.me.userId}; the gateway then moves their role in the Roblox ` +
            'group, when the workspace has one set up. The status below follows it.',
        ),
        field('New rank', choice),
        field('Reason (optional)', reason, `Up to ${REASON_MAX} characters, kept with the change.`),
      ),
      feedback.element,
      h('div', { class: 'actions' }, save, cancel),
    );
    replace(place, form);
    choice.focus();
  };

  if (!signed.can('staff.rank')) return { current, history, control: null };
  show(false);
  return { current, history, control: h('div', { class: 'rank-control' }, place, status) };
}
