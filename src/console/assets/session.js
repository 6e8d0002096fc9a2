// The console's sign-in lives in sessionStorage: this browser tab only, gone when the tab closes. It is the
// dashboard token the gateway issued for a sign-in link, its expiry, and the workspace the member works in.

const TOKEN = 'workspace-gateway.console.token';
const EXPIRES = 'workspace-gateway.console.expiresAt';
const WORKSPACE = 'workspace-gateway.console.workspaceId';
/** The environment the member last chose in a filter: the next list starts from it. */
const ENVIRONMENT = 'workspace-gateway.console.environment';
/** The queue's last filters (its address's query), for "Back to the queue". */
const QUEUE = 'workspace-gateway.console.queue';

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
  sessionStorage.removeItem(ENVIRONMENT);
  sessionStorage.removeItem(QUEUE);
}

/** @returns {string | null} */
export function chosenWorkspace() {
  return sessionStorage.getItem(WORKSPACE);
}

/** @param {string} workspaceId */
export function chooseWorkspace(workspaceId) {
  sessionStorage.setItem(WORKSPACE, workspaceId);
}

/** @returns {string | null} */
export function lastEnvironment() {
  return sessionStorage.getItem(ENVIRONMENT);
}

/** @param {string} environment */
export function rememberEnvironment(environment) {
  sessionStorage.setItem(ENVIRONMENT, environment);
}

/** The queue's address with the filters last shown. */
export function queueAddress() {
  const query = sessionStorage.getItem(QUEUE);
  return query ? `/console/applications?${query}` : '/console/applications';
}

/** @param {string} query the queue's filters, as its address's query */
export function rememberQueue(query) {
  sessionStorage.setItem(QUEUE, query);
}
