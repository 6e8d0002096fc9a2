// The console's sign-in lives in sessionStorage: this browser tab only, gone when the tab closes. It is the
// dashboard token the gateway issued for a sign-in link, its expiry, and the workspace the member works in.

const TOKEN = 'workspace-gateway.console.token';
const EXPIRES = 'workspace-gateway.console.expiresAt';
const WORKSPACE = 'workspace-gateway.console.workspaceId';

/**
 * @typedef {object} Session
 * @property {string} token
 * @property {string} expiresAt
 */

/** The tab's session, unless there is none or it has expired. @returns {Session | null} */
export function currentSession() {
  const token = sessionStorage.getItem(TOKEN);
  const expiresAt = sessionStorage.getItem(EXPIRES);
  if (!token || !expiresAt) return null;
  if (Date.parse(expiresAt) <= Date.now()) {
    endSession();
    return null;
  }
  return { token, expiresAt };
}

/** @param {Session} session */
export function startSession(session) {
  sessionStorage.setItem(TOKEN, session.token);
  sessionStorage.setItem(EXPIRES, session.expiresAt);
}

export function endSession() {
  sessionStorage.removeItem(TOKEN);
  sessionStorage.removeItem(EXPIRES);
  sessionStorage.removeItem(WORKSPACE);
}

/** @returns {string | null} */
export function chosenWorkspace() {
  return sessionStorage.getItem(WORKSPACE);
}

/** @param {string} workspaceId */
export function chooseWorkspace(workspaceId) {
  sessionStorage.setItem(WORKSPACE, workspaceId);
}
