/**
 * Roblox Open Cloud's group membership calls, as its reference documents them: `POST
 * /cloud/v2/groups/{groupId}/memberships/{userId}:assignRole` (and `:unassignRole`) with the `x-api-key` header
 * and `{ "role": "groups/{groupId}/roles/{roleId}" }`; errors are JSON `{ code, message }`, a 429 carries
 * `retry-after` in seconds. The API key is sent and never logged or kept with an outcome.
 */
import type { Timer } from '../../../webhooks/timer.ts';

export type RoleCall = 'assignRole' | 'unassignRole';

/** The calls a change needs: the new role given (when it has one), then the old one taken when it differs. */
export function roleCalls(fromRoleId: string | null, toRoleId: string | null): Array<{ call: RoleCall; roleId: string }> {
  const calls: Array<{ call: RoleCall; roleId: string }> = [];
  if (toRoleId !== null) calls.push({ call: 'assignRole', roleId: toRoleId });
  if (fromRoleId !== null && fromRoleId !== toRoleId) calls.push({ call: 'unassignRole', roleId: fromRoleId });
  return calls;
}

export interface RoleRequest {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly groupId: string;
  readonly userId: string;
  readonly roleId: string;
}

/** What a call came to: `status` null for a timeout or a network error. */
export interface CallOutcome {
  readonly ok: boolean;
  readonly status: number | null;
  readonly code: string;
  readonly message: string;
  /** A 429's `retry-after`, in ms. */
  readonly retryAfterMs: number | null;
}

const MESSAGE_MAX = 500;

function errorBody(text: string): { code: string | null; message: string | null } {
  try {
    const value = JSON.parse(text) as unknown;
    if (value && typeof value === 'object') {
      const { code, message } = value as Record<string, unknown>;
      return {
        code: typeof code === 'string' ? code : typeof code === 'number' ? String(code) : null,
        message: typeof message === 'string' ? message.slice(0, MESSAGE_MAX) : null,
      };
    }
  } catch {
    // Not JSON: described by its status.
  }
  return { code: null, message: null };
}

function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

/** One call, abandoned after `timeoutMs` on `timer`. Never rejects. */
export async function callRole(call: RoleCall, request: RoleRequest, timeoutMs: number, timer: Timer): Promise<CallOutcome> {
  const { baseUrl, apiKey, groupId, userId, roleId } = request;
  const url = `${baseUrl.replace(/\/+$/, '')}/cloud/v2/groups/${encodeURIComponent(groupId)}/memberships/${encodeURIComponent(userId)}:${call}`;
  const controller = new AbortController();
  let timedOut = false;
  const deadline = timer.setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({ role: `groups/${groupId}/roles/${roleId}` }),
      signal: controller.signal,
      redirect: 'manual',
    });
    const text = await response.text();
    if (response.status >= 200 && response.status < 300) {
      return { ok: true, status: response.status, code: 'OK', message: '', retryAfterMs: null };
    }
    const body = errorBody(text);
    return {
      ok: false,
      status: response.status,
      code: body.code ?? `HTTP_${response.status}`,
      message: body.message ?? `Open Cloud answered ${response.status}.`,
      retryAfterMs: response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : null,
    };
  } catch {
    return timedOut
      ? { ok: false, status: null, code: 'timeout', message: `Open Cloud did not answer within ${timeoutMs} ms.`, retryAfterMs: null }
      : { ok: false, status: null, code: 'network_error', message: 'Open Cloud could not be reached.', retryAfterMs: null };
  } finally {
    timer.clearTimeout(deadline);
  }
}

/**
 * Whether a failed call ends the change: a 400, 401 or 403, or a 404 on assigning (the member or the role does
 * not exist). A 429, a 5xx, a 409 (`ABORTED`), a timeout or a network error is tried again.
 */
export function isFinal(call: RoleCall, outcome: CallOutcome): boolean {
  const { status } = outcome;
  if (status === 400 || status === 401 || status === 403) return true;
  return status === 404 && call === 'assignRole';
}
