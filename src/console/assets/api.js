// Calls to the gateway's API, from the page's own origin. A failure becomes an ApiError carrying the error
// envelope's code and message, which the pages show as they are.

/** An API answer that is not a success, or no answer at all. */
export class ApiError extends Error {
  /**
   * @param {number} status 0 when no answer came
   * @param {string} code
   * @param {string} message
   * @param {string | null} requestId
   */
  constructor(status, code, message, requestId) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.requestId = requestId;
  }
}

/**
 * A fresh idempotency key for one attempt of a write. `crypto.randomUUID` exists only in secure contexts (HTTPS,
 * localhost); elsewhere a version 4 uuid is made from `crypto.getRandomValues`, which every context has.
 */
export function newIdempotencyKey() {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * @typedef {object} RequestOptions
 * @property {string} [method]
 * @property {Record<string, string | undefined>} [query] empty and undefined values are left out
 * @property {unknown} [body] sent as JSON
 * @property {boolean} [idempotent] sends a fresh Idempotency-Key
 */

/**
 * @typedef {object} Api
 * @property {(path: string, options?: RequestOptions) => Promise<unknown>} call the answer's `data`
 */

/**
 * @param {object} options
 * @param {() => string | null} options.token the dashboard token, if signed in
 * @param {() => string | null} options.workspaceId sent as X-Service-Workspace-Id
 * @param {(error: ApiError) => void} options.onUnauthenticated called on a 401 to a signed-in call
 * @returns {Api}
 */
export function createApi({ token, workspaceId, onUnauthenticated }) {
  return {
    async call(path, { method = 'GET', query, body, idempotent = false } = {}) {
      const url = new URL(path, window.location.origin);
      for (const [name, value] of Object.entries(query ?? {})) {
        if (value !== undefined && value !== '') url.searchParams.set(name, value);
      }
      /** @type {Record<string, string>} */
      const headers = { accept: 'application/json' };
      const bearer = token();
      if (bearer) headers.authorization = `Bearer ${bearer}`;
      const workspace = workspaceId();
      if (bearer && workspace) headers['x-service-workspace-id'] = workspace;
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (idempotent) headers['idempotency-key'] = newIdempotencyKey();
      let response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: body === undefined ? null : JSON.stringify(body),
          credentials: 'omit',
          cache: 'no-store',
        });
      } catch {
        throw new ApiError(0, 'network_error', 'The gateway could not be reached. Check the connection and try again.', null);
      }
      /** @type {{ data?: unknown, error?: { code?: unknown, message?: unknown, requestId?: unknown } } | null} */
      let answer = null;
      try {
        answer = await response.json();
      } catch {
        answer = null;
      }
      if (response.ok) return answer?.data;
      const { code, message, requestId } = answer?.error ?? {};
      const error = new ApiError(
        response.status,
        typeof code === 'string' ? code : 'http_error',
        typeof message === 'string' ? message : `The gateway answered ${response.status}.`,
        typeof requestId === 'string' ? requestId : response.headers.get('x-request-id'),
      );
      if (response.status === 401 && bearer) onUnauthenticated(error);
      throw error;
    },
  };
}
