// The console's shell: which view the address names, who is signed in, which workspace they work in, and the
// header with its navigation. Every view renders into a fresh container, so an answer arriving after the reader
// has moved on lands nowhere.
import { ApiError, createApi } from './api.js';
import { h, replace, showTimesIn } from './dom.js';
import { gateway as gatewayOf } from './gateway.js';
import { renderQueue } from './pages/queue.js';
import { renderSignIn } from './pages/sign-in.js';
import { renderStats } from './pages/stats.js';
import { renderSubmission } from './pages/submission.js';
import { renderTimeOff } from './pages/time-off.js';
import { renderLeaderboard } from './pages/leaderboard.js';
import { renderOnDuty } from './pages/on-duty.js';
import { renderStaff } from './pages/staff.js';
import { renderStaffMember } from './pages/staff-member.js';
import { staffGateway } from './staff-gateway.js';
import { chooseWorkspace, chosenWorkspace, currentSession, endSession } from './session.js';
import { errorText, heading } from './ui.js';

/** @typedef {import('./gateway.js').Me} Me */
/** @typedef {import('./gateway.js').Workspace} Workspace */
/** @typedef {import('./gateway.js').Permission} Permission */
/** @typedef {import('./gateway.js').Gateway} Gateway */

/**
 * What a view is given.
 * @typedef {object} View
 * @property {Gateway} gateway
 * @property {import('./staff-gateway.js').StaffGateway} staff the staff side's reads (any member)
 * @property {HTMLElement} root the view's own container
 * @property {URL} url
 * @property {(path: string, options?: { replace?: boolean }) => void} navigate
 */

/**
 * A signed-in view's context.
 * @typedef {View & { me: Me, workspace: Workspace, can: (permission: Permission) => boolean }} Signed
 */

const REVIEW = /** @type {const} */ (['applications.review', 'applications.decide']);

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
const top = /** @type {HTMLElement} */ (document.getElementById('top'));

/** @type {Me | null} */
let me = null;
/** A message for the sign-in view, left by whatever sent the reader there. @type {string | null} */
let signInNotice = null;

const api = createApi({
  token: () => currentSession()?.token ?? null,
  workspaceId: () => chosenWorkspace(),
  onUnauthenticated: () => {
    endSession();
    me = null;
    signInNotice = 'Your session has ended. Open a new sign-in link to continue.';
    navigate('/console/sign-in', { replace: true });
  },
});
const gateway = gatewayOf(api);
const staff = staffGateway(api);

/**
 * @param {string} path
 * @param {{ replace?: boolean }} [options]
 */
function navigate(path, options = {}) {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render(true);
}

/** Links inside the console move between views without loading the page again. */
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.target || link.hasAttribute('download')) return;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin || !url.pathname.startsWith('/console') || url.pathname === window.location.pathname && url.hash) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => void render(true));

/**
 * @param {Workspace} workspace
 * @param {Permission} permission
 */
function holds(workspace, permission) {
  return workspace.permissions.includes(permission);
}

/** @param {Workspace} workspace */
function firstPage(workspace) {
  if (REVIEW.some((p) => holds(workspace, p))) return '/console/applications';
  if (holds(workspace, 'notices.decide')) return '/console/time-off';
  // Every member may read the staff side.
  return '/console/staff';
}

/**
 * The header of a signed-in view: navigation (only to what the member may use), the workspace selector when
 * there are several, and "Sign out".
 * @param {Me} who
 * @param {Workspace} workspace
 * @param {string} path
 */
function renderHeader(who, workspace, path) {
  /** @type {[string, string, boolean][]} */
  const links = [
    ['Applications', '/console/applications', REVIEW.some((p) => holds(workspace, p))],
    ['Time off', '/console/time-off', holds(workspace, 'notices.decide')],
    ['Stats', '/console/stats', REVIEW.some((p) => holds(workspace, p))],
    ['Staff', '/console/staff', true],
    ['Leaderboard', '/console/leaderboard', true],
    ['On duty', '/console/on-duty', true],
  ];
  const nav = h(
    'nav',
    { class: 'main-nav', 'aria-label': 'Console' },
    h(
      'ul',
      {},
      links
        .filter(([, , allowed]) => allowed)
        .map(([label, href]) =>
          h('li', {}, h('a', { href, 'aria-current': path === href || path.startsWith(`${href}/`) ? 'page' : null }, label)),
        ),
    ),
  );
  // A form with its own button: moving through the options with the keyboard must not switch at each step.
  const choice = h('select', { id: 'workspace', name: 'workspace' }, who.workspaces.map((w) => h('option', { value: w.id, selected: w.id === workspace.id }, w.name)));
  const selector =
    who.workspaces.length > 1
      ? h(
          'form',
          {
            class: 'workspace-select',
            'aria-label': 'Choose the workspace',
            onsubmit: (/** @type {Event} */ event) => {
              event.preventDefault();
              chooseWorkspace(choice.value);
              const chosen = who.workspaces.find((w) => w.id === choice.value);
              navigate((chosen && firstPage(chosen)) ?? '/console/');
            },
          },
          h('label', { for: 'workspace' }, 'Workspace'),
          choice,
          h('button', { type: 'submit', class: 'secondary' }, 'Switch'),
        )
      : null;
  replace(
    top,
    h('p', { class: 'brand' }, h('a', { href: '/console/' }, workspace.name), h('span', { class: 'brand-sub' }, ' · Console')),
    nav,
    h(
      'div',
      { class: 'account' },
      selector,
      h('p', { class: 'user' }, h('span', { class: 'visually-hidden' }, 'Signed in as '), who.userId),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            endSession();
            me = null;
            signInNotice = 'You are signed out.';
            navigate('/console/sign-in');
          },
        },
        'Sign out',
      ),
    ),
  );
}

/**
 * @param {HTMLElement} root
 * @param {string} title
 * @param {string} text
 */
function plain(root, title, text) {
  replace(root, heading(title), h('p', {}, text));
}

/** Shows the view the address names. @param {boolean} moved a navigation, not the first load */
async function render(moved) {
  const root = h('div', { class: 'view' });
  replace(main, root);
  const url = new URL(window.location.href);
  const path = url.pathname.replace(/\/+$/, '') || '/console';
  /** @type {View} */
  const view = { gateway, staff, root, url, navigate };
  try {
    if (path === '/console/sign-in') {
      replace(top, h('p', { class: 'brand' }, 'Staff console'));
      const notice = signInNotice;
      signInNotice = null;
      await renderSignIn(view, notice);
    } else if (!currentSession()) {
      navigate('/console/sign-in', { replace: true });
      return;
    } else {
      me ??= await gateway.me();
      if (!root.isConnected) return;
      const who = me;
      const workspace = who.workspaces.find((w) => w.id === chosenWorkspace()) ?? who.workspaces[0];
      if (!workspace) {
        replace(top, h('p', { class: 'brand' }, 'Staff console'));
        plain(root, 'No workspace', 'You are not a member of any workspace. Ask the community\'s operators to add you.');
        return;
      }
      chooseWorkspace(workspace.id);
      showTimesIn(workspace.timezone);
      renderHeader(who, workspace, path);
      /** @type {Signed} */
      const signed = { ...view, me: who, workspace, can: (permission) => holds(workspace, permission) };
      await route(signed, path);
    }
  } catch (error) {
    if (!root.isConnected) return;
    if (error instanceof ApiError && error.status === 401) return;
    replace(root, heading('Something went wrong'), h('p', { role: 'alert', class: 'message error' }, errorText(error)));
  }
  if (moved && root.isConnected) root.querySelector('h1')?.focus();
}

/**
 * @param {Signed} signed
 * @param {string} path
 */
async function route(signed, path) {
  const mayReview = REVIEW.some((p) => signed.can(p));
  const submission = /^\/console\/applications\/([^/]+)$/.exec(path);
  const staffMember = /^\/console\/staff\/([^/]+)$/.exec(path);
  if (path === '/console') {
    const first = firstPage(signed.workspace);
    if (first) navigate(first, { replace: true });
    else plain(signed.root, 'Nothing to do here', 'Your permissions in this workspace allow none of the console\'s pages.');
  } else if (path === '/console/applications' && mayReview) await renderQueue(signed);
  else if (submission?.[1] && mayReview) await renderSubmission(signed, decodeURIComponent(submission[1]));
  else if (path === '/console/stats' && mayReview) await renderStats(signed);
  else if (path === '/console/time-off' && signed.can('notices.decide')) await renderTimeOff(signed);
  else if (path === '/console/staff') await renderStaff(signed);
  else if (staffMember?.[1]) await renderStaffMember(signed, decodeURIComponent(staffMember[1]));
  else if (path === '/console/leaderboard') await renderLeaderboard(signed);
  else if (path === '/console/on-duty') await renderOnDuty(signed);
  else if (['/console/applications', '/console/stats', '/console/time-off'].includes(path) || submission) {
    plain(signed.root, 'Not allowed', 'Your permissions in this workspace do not include this page.');
  } else plain(signed.root, 'Page not found', 'The console has no page at this address.');
}

void render(false);
