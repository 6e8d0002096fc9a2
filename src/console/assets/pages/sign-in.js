// /console/sign-in#code=…: exchanges a sign-in link's code for a session of this tab. The code leaves the address
// bar before anything else happens (it is usable once; a reload or a shared screen must not show it).
import { h, replace } from '../dom.js';
import { currentSession, endSession, startSession } from '../session.js';
import { errorText, heading } from '../ui.js';

/** @typedef {import('../app.js').View} View */

function howToGetALink() {
  return [
    h('p', {}, 'The console opens with a sign-in link made for you. A link works once, for 10 minutes.'),
    h(
      'ul',
      {},
      h('li', {}, 'In your community\'s chat, ask the bot for one (its ', h('code', {}, '/review'), ' command, or the one your community set up); it sends you the link privately.'),
      h(
        'li',
        {},
        'Or ask an operator of the gateway to run ',
        h('code', {}, 'workspace-gateway console-link --user <your user id>'),
        ' and send you the link.',
      ),
    ),
  ];
}

/**
 * @param {View} view
 * @param {string | null} notice why the reader was sent here (signed out, session ended)
 */
export async function renderSignIn(view, notice) {
  const code = new URLSearchParams(window.location.hash.slice(1)).get('code');
  if (window.location.hash) history.replaceState(null, '', '/console/sign-in');

  if (code === null || code === '') {
    if (currentSession() && notice === null) {
      view.navigate('/console/', { replace: true });
      return;
    }
    replace(
      view.root,
      heading('Sign in'),
      notice ? h('p', { role: 'status', class: 'message info' }, notice) : null,
      howToGetALink(),
    );
    return;
  }

  replace(view.root, heading('Signing in'), h('p', { role: 'status' }, 'Checking your sign-in link…'));
  endSession();
  try {
    const session = await view.gateway.signIn(code);
    startSession({ token: session.token, expiresAt: session.expiresAt });
    view.navigate('/console/', { replace: true });
  } catch (error) {
    const refused = error instanceof Error && 'status' in error && error.status === 401;
    replace(
      view.root,
      heading('Sign in'),
      h(
        'p',
        { role: 'alert', class: 'message error' },
        refused
          ? 'This sign-in link cannot be used: it was used already, it has expired, or it is incomplete. Ask for a new one.'
          : errorText(error),
      ),
      howToGetALink(),
    );
  }
}
